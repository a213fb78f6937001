import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tryAcquireLease } from "../../src/lease/acquire-lease.ts";
import { readLeaseHolder } from "../../src/lease/lease-holder.ts";
import { MAX_SOCKET_PATH_BYTES } from "../../src/lease/socket-path.ts";
import { type BotProcess, killBots, spawnBot, waitFor, waitForBot } from "../helpers/bot-process.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const started: BotProcess[] = [];
const bot = (cwd: string, env: Record<string, string> = {}) => {
  const b = spawnBot(cwd, env);
  started.push(b);
  return b;
};

afterEach(async () => {
  await killBots(started);
});

describe("one bot owns a data folder", () => {
  it("a second bot refuses naming the first; after the first is SIGKILLed a new bot starts", async () => {
    const cwd = tempDir();
    const dataDir = path.join(cwd, "data");
    const first = bot(cwd);
    const holder = await waitForBot(dataDir, first.pid);
    expect(holder.mode).toBe("bot");
    expect(statSync(holder.socket!).mode & 0o777).toBe(0o600);
    // The bot makes its backup of the day as soon as it runs.
    await waitFor(
      () => existsSync(path.join(dataDir, "backups", `rl-chatops-${new Date().toISOString().slice(0, 10)}.db`)),
      "the day's backup",
    );

    const second = await runCli([], { cwd });
    expect(second.code).toBe(1);
    expect(second.stderr.trim()).toBe(
      `Another rl-chatops (pid ${first.pid}, started ${holder.startedAt}) owns the data folder ${dataDir}. Stop it, or set RL_DATA_DIR to another folder.`,
    );

    first.kill("SIGKILL");
    await first.ended;
    // The kernel dropped the lock with the process; the stale pid file and socket are replaced by the winner.
    const third = bot(cwd);
    expect((await waitForBot(dataDir, third.pid)).pid).toBe(third.pid);
    third.kill("SIGTERM");
    expect((await third.ended).code).toBe(0);
    expect(readLeaseHolder(dataDir)).toBeUndefined();
  });

  it("a data folder whose socket path would be too long gets a socket under the temp folder, named in the pid file", async () => {
    const cwd = tempDir();
    const dataDir = path.join(cwd, "d".repeat(MAX_SOCKET_PATH_BYTES));
    const b = bot(cwd, { RL_DATA_DIR: dataDir });
    const holder = await waitForBot(dataDir, b.pid);
    expect(path.dirname(holder.socket!)).not.toBe(dataDir);
    expect(Buffer.byteLength(holder.socket!)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    expect(statSync(holder.socket!).mode & 0o777).toBe(0o600);

    const out = await runCli(["exec", "/rl envs", "--json"], { cwd, env: { RL_DATA_DIR: dataDir } });
    expect(out.code).toBe(0);
    expect(out.stderr).toBe("");
    expect(JSON.parse(out.stdout)).toHaveProperty("environments");
  });

  it("exec exits 1 saying so when the folder's holder does not answer on its socket", async () => {
    const cwd = tempDir();
    const dataDir = path.join(cwd, "data");
    // This test process holds the lease as a bot would, and says it is ready, but serves no socket.
    const attempt = tryAcquireLease(dataDir, "bot");
    if (!("lease" in attempt)) throw new Error("the fresh folder's lease was taken");
    attempt.lease.markReady();
    try {
      const out = await runCli(["exec", "/rl envs"], { cwd });
      expect(out.code).toBe(1);
      expect(out.stdout).toBe("");
      expect(out.stderr).toContain(
        `(pid ${process.pid}, started ${attempt.lease.holder.startedAt}) owns the data folder ${dataDir} but does not answer on ${attempt.lease.socketPath}`,
      );
    } finally {
      attempt.lease.release();
    }
  });
});

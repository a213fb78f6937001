// exec gives up on a bot that owns the data folder but does not take its command (stopped or hung); a long command a
// bot has taken is waited for.
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tryAcquireLease, type Lease } from "../../src/lease/acquire-lease.ts";
import { ACK_LINE } from "../../src/lease/ask-bot.ts";
import { botsPerTest, readDb, waitFor } from "../helpers/bot-process.ts";
import { demoLockedFields } from "../helpers/demo-stack.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const { dataDirs, startBot } = botsPerTest();
const cleanups: Array<() => void> = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A real bot whose starts are slow (the trainer never becomes healthy, so each fails after `readySeconds`). */
async function slowStartBot(cwd: string, readySeconds: number) {
  const env = {
    RL_LOCKED_FIELDS: await demoLockedFields(cwd, { fault: "no_health" }),
    RL_READY_TIMEOUT_SECONDS: String(readySeconds),
    RL_STOP_GRACE_SECONDS: "1",
  };
  const dataDir = path.join(cwd, "data");
  dataDirs.push(dataDir);
  const bot = await startBot(cwd, env);
  expect((await runCli(["exec", "/rl select arithmetic"], { cwd, env })).code).toBe(0);
  return { bot, env, dataDir };
}

const runCount = (cwd: string, env: Record<string, string>) =>
  readDb(cwd, env, (db) => (db.prepare("SELECT count(*) AS n FROM runs").get() as { n: number }).n) ?? 0;

/** This test process holds the data folder's lease as a bot would, and serves its socket with `onRequest`. */
async function fakeBot(cwd: string, onRequest: (reply: (line: string) => void) => void): Promise<Lease> {
  const attempt = tryAcquireLease(path.join(cwd, "data"), "bot");
  if (!("lease" in attempt)) throw new Error("the fresh folder's lease was taken");
  const server: Server = createServer((socket) => {
    socket.on("error", () => socket.destroy());
    socket.once("data", () => onRequest((line) => !socket.destroyed && socket.write(`${line}\n`)));
  });
  await new Promise<void>((resolve) => server.listen(attempt.lease.socketPath, resolve));
  attempt.lease.markReady();
  cleanups.push(() => {
    server.close();
    attempt.lease.release();
  });
  return attempt.lease;
}

describe("rl-chatops exec --timeout", () => {
  it("gives up on a stopped bot naming its pid, the folder and kill -CONT; works again once it is continued", async () => {
    const cwd = tempDir();
    const dataDir = path.join(cwd, "data");
    const bot = await startBot(cwd);

    process.kill(bot.pid, "SIGSTOP");
    try {
      const out = await runCli(["exec", "/rl envs", "--timeout", "2"], { cwd });
      expect(out.code).toBe(1);
      expect(out.stdout).toBe("");
      expect(out.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(out.stderr).toContain(
        `The bot (pid ${bot.pid}) that owns the data folder ${dataDir} did not take the command within 2 s (--timeout).`,
      );
      expect(out.stderr).toContain(`It is stopped: resume it with kill -CONT ${bot.pid}`);
    } finally {
      process.kill(bot.pid, "SIGCONT");
    }

    const again = await runCli(["exec", "/rl envs", "--json", "--timeout", "2"], { cwd });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("");
    expect(JSON.parse(again.stdout)).toHaveProperty("environments");
  });

  it("waits for a live bot's answer to a start that takes longer than the timeout", async () => {
    const cwd = tempDir();
    const { env } = await slowStartBot(cwd, 5);
    const out = await runCli(["exec", "/rl start", "--json", "--timeout", "1"], { cwd, env });
    // The bot's own answer (the run failed to become ready), not exec giving up.
    expect(out.code).toBe(1);
    expect(out.stderr).toBe("");
    expect(JSON.parse(out.stdout)).toMatchObject({ error: { code: "PROCESS_FAILED" } });
  });

  it("gives up on a bot stopped while working on a command it took", async () => {
    const cwd = tempDir();
    const { bot, env, dataDir } = await slowStartBot(cwd, 30);
    const exec = runCli(["exec", "/rl start", "--timeout", "2"], { cwd, env });
    // The run's record exists: the bot has read (and acknowledged) the request.
    await waitFor(() => runCount(cwd, env) > 0, "the start to be under way");
    process.kill(bot.pid, "SIGSTOP");
    try {
      const out = await exec;
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(
        `The bot (pid ${bot.pid}) that owns the data folder ${dataDir} took the command but has been stopped for 2 s (--timeout).`,
      );
      expect(out.stderr).toContain(`It is stopped: resume it with kill -CONT ${bot.pid}`);
    } finally {
      process.kill(bot.pid, "SIGCONT");
    }
  });

  it("gives up on a bot that is running but never takes the command, saying it may be hung", async () => {
    const cwd = tempDir();
    await fakeBot(cwd, () => undefined);
    const out = await runCli(["exec", "/rl envs", "--timeout", "1"], { cwd });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(
      `The bot (pid ${process.pid}) that owns the data folder ${path.join(cwd, "data")} did not take the command within 1 s (--timeout).`,
    );
    expect(out.stderr).toContain(`It may be hung: see its log in ${path.join(cwd, "data", "logs")}`);
  });

  it("waits past the timeout for the answer to a command the bot has taken", async () => {
    const cwd = tempDir();
    await fakeBot(cwd, (reply) => {
      reply(ACK_LINE);
      setTimeout(() => reply(JSON.stringify({ ok: true, reply: {}, rendered: "started at last" })), 2500);
    });
    const out = await runCli(["exec", "/rl start", "--timeout", "1"], { cwd });
    expect(out).toEqual({ code: 0, stdout: "started at last", stderr: "" });
  });

  it("refuses a timeout that is not a number of seconds above 0", async () => {
    const cwd = tempDir();
    for (const value of ["0", "soon", "-1", "1e3"]) {
      const out = await runCli(["exec", "/rl envs", `--timeout=${value}`], { cwd });
      expect(out.code).toBe(2);
      expect(out.stderr).toContain("--timeout takes a number of seconds above 0");
    }
  });
});

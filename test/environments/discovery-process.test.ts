// The bot's discovery runs in a process of its own: at a lower priority in every thread, without the chat secrets,
// gone with the bot however the bot ends, and started afresh when it dies.
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config.ts";
import { createProcessScanner } from "../../src/environments/discovery-process/process-scanner.ts";
import { DISCOVERY_NICE } from "../../src/environments/discovery-process/protocol.ts";
import type { EnvironmentScanner } from "../../src/environments/scanner.ts";
import { discoveryProcessesOf, isDiscovery, threadNiceValues } from "./discovery-processes.ts";
import { scannerCleanups } from "./scanner-cleanups.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { spawnTracked } from "../helpers/children.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/envs/", import.meta.url));
const OWNER = path.join(PACKAGE_ROOT, "test", "environments", "discovery-owner-child.ts");
const HAS_PROC = existsSync("/proc/self/task");

const { closing, later } = scannerCleanups();

describe.skipIf(!HAS_PROC)("the discovery process (Linux: read from /proc)", () => {
  it("scans in a process of its own, every thread of it at the lower priority, with no chat secret and no CA bundle in its environment", async () => {
    const secret = "xoxb-discovery-test-secret-value";
    const before = process.env.SLACK_BOT_TOKEN;
    const certsBefore = process.env.NODE_EXTRA_CA_CERTS;
    process.env.SLACK_BOT_TOKEN = secret;
    // Read by Node before any code at every start; discovery opens no connection.
    process.env.NODE_EXTRA_CA_CERTS = path.join(FIXTURES, "no-such-bundle.pem");
    let scanner: EnvironmentScanner;
    try {
      scanner = closing(createProcessScanner({ lockedEnv: {} }));
      const scanning = scanner.scan(FIXTURES);
      const [pid, ...others] = discoveryProcessesOf(process.pid);
      expect(others).toEqual([]);
      expect((await scanning).environments.length).toBeGreaterThan(3);
      // Its threads by now: V8's, libuv's and the main one, each lowered.
      const nice = threadNiceValues(pid!);
      expect(nice.length).toBeGreaterThan(1);
      expect(new Set(nice)).toEqual(new Set([DISCOVERY_NICE]));
      expect(readFileSync(`/proc/${pid}/environ`, "utf8")).not.toContain(secret);
      expect(readFileSync(`/proc/${pid}/cmdline`, "utf8")).not.toContain(secret);
      expect(readFileSync(`/proc/${pid}/environ`, "utf8")).not.toContain("NODE_EXTRA_CA_CERTS=");
    } finally {
      if (before === undefined) delete process.env.SLACK_BOT_TOKEN;
      else process.env.SLACK_BOT_TOKEN = before;
      if (certsBefore === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = certsBefore;
    }
    // Closing ends it.
    const [pid] = discoveryProcessesOf(process.pid);
    await scanner.close();
    expect(isDiscovery(pid!)).toBe(false);
  });

  it("fails the scan of a discovery process that dies, and the next scan starts a new one", async () => {
    const scanner = closing(createProcessScanner({ lockedEnv: {} }));
    const scanning = scanner.scan(FIXTURES);
    const [first] = discoveryProcessesOf(process.pid);
    process.kill(first!, "SIGKILL");
    await expect(scanning).rejects.toMatchObject({
      code: "INTERNAL",
      message: "Discovery stopped unexpectedly (killed by SIGKILL); try again.",
    });
    const again = await scanner.scan(FIXTURES);
    expect(again.environments.length).toBeGreaterThan(3);
    const [second] = discoveryProcessesOf(process.pid);
    expect(second).not.toBe(first);
  });

  it("does not keep an idle bot alive, and ends with it", async () => {
    const owner = await spawnTracked(process.execPath, ["--import", "tsx", OWNER, "idle"], {
      cwd: PACKAGE_ROOT,
      reject: false,
    });
    expect({ exitCode: owner.exitCode, timedOut: owner.timedOut, stderr: owner.stderr }).toEqual({
      exitCode: 0,
      timedOut: false,
      stderr: "",
    });
    const [pids, found] = owner.stdout.trim().split(" ");
    expect(Number(found)).toBeGreaterThan(3);
    const pid = Number(pids);
    expect(pid).toBeGreaterThan(0);
    await waitFor(() => !isDiscovery(pid), `discovery process ${pid} to be gone`);
  });

  it("is left to the bot by a Ctrl-C at its terminal (SIGINT to the whole process group)", async () => {
    // In a process group of its own, as a bot started from a shell is; discovery is in it too.
    const owner = spawnTracked(process.execPath, ["--import", "tsx", OWNER, "interrupt"], {
      cwd: PACKAGE_ROOT,
      detached: true,
      reject: false,
    });
    await new Promise<void>((resolve, reject) => {
      let out = "";
      owner.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("ready\n")) resolve();
      });
      void owner.then((result) => reject(new Error(`the owner ended first: ${result.stderr}`)));
    });
    process.kill(-owner.pid!, "SIGINT");
    const result = await owner;
    // The bot's scan after the key was answered by the same discovery process, from its cache.
    expect({ exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr }).toEqual({
      exitCode: 0,
      stdout: "ready\nparsed 0",
      stderr: "",
    });
  });

  it("ends when the bot is killed with SIGKILL in the middle of a scan", async () => {
    // A folder that takes a while to parse: the kill lands while discovery is busy.
    const root = await mkdtemp(path.join(os.tmpdir(), "rl-discovery-kill-"));
    later(() => rm(root, { recursive: true, force: true }));
    const source = await readFile(path.join(FIXTURES, "reasoning_env.py"), "utf8");
    for (let i = 0; i < 300; i++)
      await writeFile(path.join(root, `env_${i}.py`), source.replace(/name = "reasoning"/, `name = "env_${i}"`));
    const owner = spawnTracked(process.execPath, ["--import", "tsx", OWNER, "scanning", root], {
      cwd: PACKAGE_ROOT,
      reject: false,
    });
    const pid = await new Promise<number>((resolve, reject) => {
      let out = "";
      owner.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(Number(out.trim()));
      });
      void owner.then((result) => reject(new Error(`the owner ended first: ${result.stderr}`)));
    });
    expect(isDiscovery(pid)).toBe(true);
    owner.kill("SIGKILL");
    expect((await owner).signal).toBe("SIGKILL");
    await waitFor(() => !isDiscovery(pid), `discovery process ${pid} to be gone`);
  });
});

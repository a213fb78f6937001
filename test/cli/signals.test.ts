import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { runConsole } from "../../adapters/console/console.ts";
import { readLeaseHolder } from "../../src/lease/lease-holder.ts";
import { type BotProcess, killBots, killRunProcesses, spawnBot, waitFor, waitForBot } from "../helpers/bot-process.ts";
import { demoLockedFields } from "../helpers/demo-stack.ts";
import { tempDir, testServices } from "../helpers/test-services.ts";

const started: BotProcess[] = [];
const dataDirs: string[] = [];

afterEach(async () => {
  await killBots(started);
  for (const dir of dataDirs.splice(0)) killRunProcesses(dir);
});

describe("signals", () => {
  it("SIGTERM ends the console bot with its input still open: exit 0, database closed last, lease released", async () => {
    const cwd = tempDir();
    const b = spawnBot(cwd, { RL_LOG_LEVEL: "warn" });
    started.push(b);
    await waitForBot(path.join(cwd, "data"), b.pid);
    b.write("/rl select parity\n");
    await waitFor(() => b.stdout().includes("Selected parity"), "the console's answer");

    b.kill("SIGTERM");
    const end = await b.ended;
    expect(end.code).toBe(0);
    expect(b.stderr()).not.toMatch(/not open|"level":"error"/);
    expect(readLeaseHolder(path.join(cwd, "data"))).toBeUndefined();
  });

  it("a second signal during a slow shutdown quits at once with 143", async () => {
    const cwd = tempDir();
    dataDirs.push(path.join(cwd, "data"));
    // The trainer never becomes healthy: the start in flight would hold the shutdown for a minute.
    const env = {
      RL_LOCKED_FIELDS: await demoLockedFields(cwd, { fault: "no_health" }),
      RL_READY_TIMEOUT_SECONDS: "60",
      RL_STOP_GRACE_SECONDS: "2",
    };
    const b = spawnBot(cwd, env);
    started.push(b);
    await waitForBot(path.join(cwd, "data"), b.pid);
    b.write("/rl select arithmetic\n/rl start\n");
    await waitFor(() => b.stdout().includes("api is ready"), "the start to be in flight");

    b.kill("SIGTERM");
    await waitFor(() => b.stderr().includes("finishing the work in flight"), "the first signal to be taken");
    b.kill("SIGTERM");
    expect((await b.ended).code).toBe(143);
  });

  it("the console answers no line read after its signal is aborted", async () => {
    const services = testServices();
    const input = new PassThrough();
    const output = new PassThrough();
    let written = "";
    output.on("data", (d: Buffer) => (written += d.toString()));
    const abort = new AbortController();
    try {
      const done = runConsole(services, { input, output, signal: abort.signal });
      input.write("/rl select parity\n");
      await waitFor(() => written.includes("Selected parity"), "the first answer");
      abort.abort();
      input.write("/rl select arithmetic\n/rl envs\n");
      await done;
      expect(written).not.toContain("Selected arithmetic");
      expect(written).not.toContain("Environments");
    } finally {
      await services.close();
    }
  });
});

import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runConsole } from "../../adapters/console/console.ts";
import { readLeaseHolder } from "../../src/lease/lease-holder.ts";
import {
  endWithin,
  botsPerTest,
  readDb,
  runProcessesLeft,
  spawnBot,
  type SpawnOptions,
  waitFor,
  waitForBot,
  waitForStuckTrainer,
} from "../helpers/bot-process.ts";
import { demoLockedFields } from "../helpers/demo-stack.ts";
import { CLI, runCli } from "../helpers/run-cli.ts";
import { tempDir, testServices } from "../helpers/test-services.ts";
import { WAIT_CEILING_MS } from "../helpers/ceiling.ts";
import { spawnTracked } from "../helpers/children.ts";
import { PACKAGE_ROOT } from "../../src/config.ts";

const { started, dataDirs, startBot } = botsPerTest();

describe("signals", () => {
  it("SIGTERM while the command is still loading: it takes nothing, opens nothing, and exits 0", async () => {
    const cwd = tempDir();
    const stall = tempDir("rl-stall-");
    // The load of dist/cli.js is held: the moment before any of the bot's own code runs.
    const child = spawnTracked(
      process.execPath,
      ["--import", path.join(PACKAGE_ROOT, "test/helpers/stall-import.mjs"), CLI],
      { cwd, env: { RL_TEST_STALL_DIR: stall, RL_LOG_LEVEL: "warn" }, stdin: "pipe", reject: false },
    );
    await waitFor(() => existsSync(path.join(stall, "stalled")), "the command's load to be held");
    child.kill("SIGTERM");
    writeFileSync(path.join(stall, "release"), "");
    const end = await child;
    expect({ code: end.exitCode, signal: end.signal }).toEqual({ code: 0, signal: undefined });
    expect(String(end.stderr)).toContain("SIGTERM: finishing the work in flight");
    expect(String(end.stderr)).toContain("stopped before it started; nothing was opened");
    expect(existsSync(path.join(cwd, "data", "rl-chatops.db"))).toBe(false);
    expect(existsSync(path.join(cwd, "data", "bot.pid"))).toBe(false);
  });

  it("SIGTERM ends the console bot with its input still open: exit 0, database closed last, lease released", async () => {
    const cwd = tempDir();
    const b = await startBot(cwd, { RL_LOG_LEVEL: "warn" });
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
    // The trainer never becomes healthy and ignores SIGTERM: stopping the start in flight waits out the stop grace
    // period (a minute) before it is killed.
    const env = {
      RL_LOCKED_FIELDS: await demoLockedFields(cwd, { fault: "hung" }),
      RL_READY_TIMEOUT_SECONDS: "60",
      RL_STOP_GRACE_SECONDS: "60",
    };
    const b = await startBot(cwd, env);
    b.write("/rl select arithmetic\n/rl start\n");
    await waitForStuckTrainer(path.join(cwd, "data"), b);

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

// A signal or /rl stop while a run is starting: the start ends "stopped", nothing of it is left running, and one
// signal ends the bot with 0 even with its input left open.
interface RunRecord {
  id: string;
  status: string;
  stopped_by: string | null;
}

const runsOf = (cwd: string): RunRecord[] =>
  readDb(cwd, {}, (db: Database.Database) =>
    db.prepare("SELECT id, status, stopped_by FROM runs").all(),
  ) as RunRecord[];

/** A bot on the demo stack (its trainer given the demo `fault`, or a long healthy run), its console input left open. */
async function stuckBot(fault: string | undefined, options: SpawnOptions = {}) {
  const cwd = tempDir();
  const dataDir = path.join(cwd, "data");
  dataDirs.push(dataDir);
  const env = {
    RL_LOCKED_FIELDS: await demoLockedFields(cwd, fault ? { fault } : { totalSteps: 200, stepSeconds: 0.5 }),
    // Far longer than any wait below: a shutdown that waited out the readiness timeout fails the test.
    RL_READY_TIMEOUT_SECONDS: "3600",
    RL_STOP_GRACE_SECONDS: "5",
  };
  const b = spawnBot(cwd, env, options);
  started.push(b);
  // On a terminal, b.pid is the terminal's (script); the bot is the process holding the folder.
  const holder = await waitFor(() => readLeaseHolder(dataDir), "the bot to hold the data folder");
  if (!options.terminal) await waitForBot(dataDir, b.pid);
  return { cwd, dataDir, b, botPid: holder.pid };
}

/** Every run the folder has was stopped by `by`, and none of its processes is left. */
function expectAllStopped(cwd: string, by: string): void {
  const dataDir = path.join(cwd, "data");
  for (const run of runsOf(cwd)) expect(run, `run ${run.id}`).toMatchObject({ status: "stopped", stopped_by: by });
  expect(runProcessesLeft(dataDir)).toEqual([]);
}

describe("stopping during start-up", () => {
  it("one SIGTERM while the first command is answered, input left open: exit 0, the start after it stopped or never made", async () => {
    const { cwd, b } = await stuckBot(undefined);
    b.write("/rl select arithmetic\n/rl start\n");
    await waitFor(() => b.stdout().includes("Selected arithmetic"), "the first answer");
    b.kill("SIGTERM");

    expect((await endWithin(b, WAIT_CEILING_MS, "one SIGTERM")).code).toBe(0);
    expect(b.stdout()).not.toContain("keeps running");
    expectAllStopped(cwd, "bot shutdown");
  });

  it("SIGTERM while the trainer never becomes ready: exit 0, the run stopped, none of its processes left", async () => {
    const { cwd, dataDir, b } = await stuckBot("no_health");
    b.write("/rl select arithmetic\n/rl start\n");
    const runId = await waitForStuckTrainer(dataDir, b);
    b.kill("SIGTERM");

    expect((await endWithin(b, WAIT_CEILING_MS, "one SIGTERM (the readiness timeout is 3600 s)")).code).toBe(0);
    expect(runsOf(cwd)).toEqual([{ id: runId, status: "stopped", stopped_by: "bot shutdown" }]);
    expect(runProcessesLeft(dataDir)).toEqual([]);
    expect(b.stdout()).toContain(`Run ${runId} (arithmetic): stop`);
    expect(b.stdout()).toContain("before it was up, by bot shutdown");
    expect(b.stdout()).not.toContain("keeps running");
  });

  it("Ctrl-C (SIGINT) right after /rl start is sent: exit 0, the run (if it was made) stopped, nothing left running", async () => {
    const { cwd, b } = await stuckBot("no_health");
    b.write("/rl select arithmetic\n");
    await waitFor(() => b.stdout().includes("Selected arithmetic"), "the selection");
    b.write("/rl start\n");
    b.kill("SIGINT");

    expect((await endWithin(b, WAIT_CEILING_MS, "one SIGINT")).code).toBe(0);
    expectAllStopped(cwd, "bot shutdown");
  });

  it("Ctrl-C at a terminal just after confirming /rl start: exit 0, the run stopped, none of its processes left", async () => {
    const { cwd, b, botPid } = await stuckBot("no_health", { terminal: true });
    await waitFor(() => b.stdout().includes("rl> "), "the prompt");
    b.write("/rl select arithmetic\r");
    await waitFor(() => b.stdout().includes("Selected arithmetic"), "the selection");
    b.write("/rl start\r");
    await waitFor(() => b.stdout().includes("Go ahead?"), "the confirmation prompt");
    b.write("y\r");
    await waitFor(() => b.stdout().includes("Starting the trajectory API"), "the start to begin");
    process.kill(botPid, "SIGINT");

    expect((await endWithin(b, WAIT_CEILING_MS, "one SIGINT")).code).toBe(0);
    expectAllStopped(cwd, "bot shutdown");
    expect(runsOf(cwd)).toHaveLength(1);
  });

  it("/rl stop from exec on a run stuck starting: stopped by the person, its processes gone, the bot serving on", async () => {
    const { cwd, dataDir, b } = await stuckBot("no_health");
    b.write("/rl select arithmetic\n/rl start\n");
    const runId = await waitForStuckTrainer(dataDir, b);

    const stop = await runCli(["exec", `/rl stop ${runId}`, "--user", "alice"], { cwd });
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toContain("stopped");
    expect(runsOf(cwd)).toEqual([{ id: runId, status: "stopped", stopped_by: "alice" }]);
    expect(runProcessesLeft(dataDir)).toEqual([]);
    await waitFor(() => b.stdout().includes("before it was up, by alice"), "the start's own reply");

    b.write("/rl select parity\n");
    await waitFor(() => b.stdout().includes("Selected parity"), "the console to answer the next command");
    b.kill("SIGTERM");
    expect((await endWithin(b, WAIT_CEILING_MS, "one SIGTERM")).code).toBe(0);
  });
});

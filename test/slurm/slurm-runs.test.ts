// Demo-stack training through a real one-machine Slurm: complete, stop, failure, pending, bot restart, vanished job.
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { processStartTime } from "../../src/process/process-info.ts";
import { jobFiles } from "../../src/training/backends/slurm/job-spec.ts";
import { TERMINAL_STATES } from "../../src/training/backends/slurm/slurm-commands.ts";
import { CONSOLE, nextEvent, startDemo, type DemoOptions, type DemoStack } from "../helpers/demo-stack.ts";
import {
  SLURM_ENV,
  componentPids,
  jobEnded,
  slurm,
  slurmMissing,
  statusOf,
  submitBlocker,
  untilJob,
} from "../helpers/slurm.ts";
import { waitFor } from "../helpers/wait-for.ts";

const missing = slurmMissing();
// CI starts Slurm in .ci/run: there a missing Slurm is a failure, never a skip.
const skip = missing !== undefined && !process.env.CI;
if (skip) console.warn(`Skipping the Slurm tests: ${missing}`);

// /rl start waits up to 30 s for the job to leave the queue (Slurm takes 1-3 s here); the pending tests wait 2 s.
const PENDING_ENV = { RL_SLURM_START_WAIT_SECONDS: "2" };

const stacks: DemoStack[] = [];
const blockers: string[] = [];
afterEach(async () => {
  for (const id of blockers.splice(0)) await slurm.cancel(id);
  for (const s of stacks.splice(0)) {
    for (const run of s.services.runs.listByStatus(["queued", "starting", "running"]))
      await s.services.manager.stop(run.id, "test cleanup").catch(() => undefined);
    await s.services.close();
  }
});

async function demo(options: DemoOptions = {}): Promise<DemoStack> {
  const stack = await startDemo({ ...options, env: { ...SLURM_ENV, ...options.env } });
  stacks.push(stack);
  await stack.services.env.selectEnvironment(CONSOLE, "arithmetic");
  return stack;
}

describe.skipIf(skip)("training runs on the slurm backend", () => {
  it("has a Slurm with an idle node", () => {
    expect(missing).toBeUndefined();
  });

  it("runs to completion as one batch job, with the same events as a local run", async () => {
    const stack = await demo({ totalSteps: 8 });
    const { services } = stack;
    const kinds: string[] = [];
    services.manager.onEvent((e) => kinds.push(e.kind));
    const t0 = Date.now();
    const started = nextEvent(services, "started");
    const completed = nextEvent(services, "completed");
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.backend).toBe("slurm");
    expect(run.jobId).toMatch(/^\d+$/);
    expect(["running", "completed"]).toContain(run.status);
    await started;
    console.info(
      `slurm: submit to running (all three components ready, seen by the bot) took ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    const event = await completed;
    expect(event.run.id).toBe(run.id);
    expect(event.message).toMatch(/Training complete after \d+ steps/);
    expect(kinds).toEqual(["started", "completed"]);

    const results = await services.report.results(services.runs.get(run.id)!);
    expect(results.status).toBe("completed");
    expect(results.final_weights).toMatch(/^tinker:\/\//);
    expect(results.reward_history.length).toBeGreaterThan(0);
    const job = await jobEnded(run);
    expect(job).toMatchObject({ state: "COMPLETED", exitCode: 0 });
    const view = await services.report.status(services.runs.get(run.id)!);
    expect(view.slurm).toMatchObject({ job_id: run.jobId, state: "COMPLETED", node: hostname().split(".")[0] });
    expect(view.processes.trainer).toBe("exited (0)");
    expect((await statusOf(stack, run.id))?.state).toBe("completed");
    for (const pid of await componentPids(stack, run.id)) expect(processStartTime(pid)).toBeUndefined();
  });

  it("stops a running job midway: env, trainer and api stopped in that order, all gone", async () => {
    const stack = await demo({ totalSteps: 400, stepSeconds: 0.1 });
    const { services } = stack;
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status).toBe("running");
    await waitFor(async () => ((await services.report.status(services.runs.get(run.id)!)).step ?? 0) >= 2, "two steps");
    const pids = await componentPids(stack, run.id);
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(processStartTime(pid)).toBeDefined();

    const stoppedEvent = nextEvent(services, "stopped", run.id);
    const stopped = await services.manager.stop(run.id, "alice");
    expect(stopped).toMatchObject({ status: "stopped", stoppedBy: "alice" });
    expect((await stoppedEvent).message).toMatch(/stopped by alice/);
    for (const pid of pids) expect(processStartTime(pid)).toBeUndefined();
    expect((await statusOf(stack, run.id))?.state).toBe("stopped");
    const job = await jobEnded(run);
    expect(job === "unknown" || TERMINAL_STATES.has(job.state)).toBe(true);
    const out = readFileSync(jobFiles(services.config.logsDir, services.config.runConfigsDir, run.id).output, "utf8");
    const order = ["env", "trainer", "api"].map((c) => out.indexOf(`stopping ${c}`));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const view = await services.report.status(services.runs.get(run.id)!);
    expect(Object.values(view.processes).every((s) => s.startsWith("exited") || s.startsWith("killed"))).toBe(true);
  });

  it("reports a run stopped when its job is cancelled outside the bot (plain scancel)", async () => {
    const stack = await demo({ totalSteps: 400, stepSeconds: 0.1 });
    const { services } = stack;
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status).toBe("running");
    const pids = await componentPids(stack, run.id);
    const stopped = nextEvent(services, "stopped", run.id);
    await slurm.cancel(run.jobId!);
    expect((await stopped).message).toMatch(/cancelled outside the bot/);
    expect(services.runs.get(run.id)).toMatchObject({ status: "stopped", stoppedBy: expect.stringMatching(/Slurm/) });
    expect(await jobEnded(run)).toMatchObject({ state: "CANCELLED" });
    await waitFor(() => pids.every((pid) => processStartTime(pid) === undefined), "the components to be gone");
  });

  it.each([
    { fault: "crash_in_step:2", exitCode: 1, message: /trainer exited with code 1/ },
    { fault: "error_in_step:1", exitCode: 0, message: /step error.*Error in step 1/ },
  ])("fails naming the trainer when it fails ($fault), with its log tail", async ({ fault, exitCode, message }) => {
    const stack = await demo({ totalSteps: 20, fault });
    const { services } = stack;
    const failed = nextEvent(services, "failed");
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    const event = await failed;
    expect(event.run.id).toBe(run.id);
    expect(event.component).toBe("trainer");
    expect(event.exitCode).toBe(exitCode);
    expect(event.message).toMatch(message);
    expect(event.logTail?.length).toBeGreaterThan(0);
    expect(services.runs.get(run.id)).toMatchObject({ status: "failed", failedComponent: "trainer" });
    const status = await statusOf(stack, run.id);
    expect(status).toMatchObject({ state: "failed", component: "trainer", exit_code: exitCode });
    expect(await jobEnded(run)).toMatchObject({ state: "FAILED", exitCode: 1 });
    for (const pid of await componentPids(stack, run.id)) expect(processStartTime(pid)).toBeUndefined();
  });

  it("stays starting while the job is pending, says why, and starts when Slurm runs it", async () => {
    const blocker = await submitBlocker();
    blockers.push(blocker);
    await untilJob(blocker, (j) => j !== "unknown" && j.state === "RUNNING", "the blocker to run");
    const stack = await demo({ totalSteps: 400, stepSeconds: 0.1, env: PENDING_ENV });
    const { services } = stack;
    const notes: string[] = [];
    const run = await services.manager.start({
      channel: CONSOLE,
      userId: "alice",
      progress: async (t) => void notes.push(t),
    });
    expect(run.status).toBe("starting");
    expect(notes.at(-1)).toMatch(/is pending/);
    // Slurm gives the reason once its scheduler has looked at the job (Reason=None before that).
    let pending = await services.report.status(run);
    await waitFor(async () => !!(pending = await services.report.status(run)).slurm?.reason, "a pending reason");
    expect(pending.status).toBe("starting");
    expect(pending.slurm).toMatchObject({ job_id: run.jobId, state: "PENDING" });
    expect(pending.processes.api).toContain(`pending in the Slurm queue (${pending.slurm?.reason})`);
    console.info(`slurm: pending job ${run.jobId} reason: ${pending.slurm?.reason}`);

    const started = nextEvent(services, "started", run.id);
    const t0 = Date.now();
    await slurm.cancel(blocker);
    await started;
    console.info(`slurm: node freed to run started took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const running = await services.report.status(services.runs.get(run.id)!);
    expect(running).toMatchObject({ status: "running", slurm: { state: "RUNNING" } });
    expect((await services.manager.stop(run.id, "alice")).status).toBe("stopped");
  });

  it("cancels a pending job when its run is stopped", async () => {
    const blocker = await submitBlocker();
    blockers.push(blocker);
    await untilJob(blocker, (j) => j !== "unknown" && j.state === "RUNNING", "the blocker to run");
    const stack = await demo({ totalSteps: 400, stepSeconds: 0.1, env: PENDING_ENV });
    const { services } = stack;
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status).toBe("starting");
    expect((await services.manager.stop(run.id, "alice")).status).toBe("stopped");
    expect(await jobEnded(run)).toMatchObject({ state: "CANCELLED" });
  });

  it("re-attaches to a running job after a bot restart, and the new bot stops it", async () => {
    const first = await startDemo({ totalSteps: 400, stepSeconds: 0.1, env: SLURM_ENV });
    await first.services.env.selectEnvironment(CONSOLE, "arithmetic");
    const run = await first.services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status).toBe("running");
    const pids = await componentPids(first, run.id);
    await first.services.close(); // the bot goes away; the job carries on

    expect(await slurm.show(run.jobId!)).toMatchObject({ state: "RUNNING" });
    for (const pid of pids) expect(processStartTime(pid)).toBeDefined();
    const second = await startDemo({ cwd: first.cwd, lockedFile: first.lockedFile, env: SLURM_ENV });
    stacks.push(second);
    await second.services.manager.recover();
    expect(second.services.runs.get(run.id)!.status).toBe("running");
    const status = await second.services.report.status(second.services.runs.get(run.id)!);
    expect(status.processes).toEqual({ api: "running", trainer: "running", env: "running" });
    expect(status.slurm).toMatchObject({ job_id: run.jobId, state: "RUNNING" });

    const stopped = await second.services.manager.stop(run.id, "alice");
    expect(stopped.status).toBe("stopped");
    for (const pid of pids) expect(processStartTime(pid)).toBeUndefined();
  });

  it("reports a run lost when Slurm no longer knows its job and it left no status file", async () => {
    const stack = await demo();
    const { services } = stack;
    services.runs.insert({
      id: "deadbeef",
      channel: CONSOLE,
      environment: "arithmetic",
      config: {},
      status: "running",
      createdBy: "alice",
      backend: "slurm",
    });
    services.runs.update("deadbeef", { jobId: "99999999" });
    const lost = nextEvent(services, "lost", "deadbeef");
    await services.manager.recover();
    expect(services.runs.get("deadbeef")!.status).toBe("lost");
    expect((await lost).message).toMatch(/no longer knows job 99999999/);
  });
});

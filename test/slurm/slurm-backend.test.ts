// The slurm backend's verdicts from scontrol + the status file, with a scripted scontrol (no cluster needed).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunStatus } from "../../db/runs.ts";
import type { Services } from "../../src/services.ts";
import type { RunEvent } from "../../src/training/run-events.ts";
import { createRunActionsRepo } from "../../db/run-actions.ts";
import { createTransitions } from "../../src/training/lifecycle/transitions.ts";
import { jobFiles } from "../../src/training/backends/slurm/job-spec.ts";
import { createSlurmBackend } from "../../src/training/backends/slurm/slurm-backend.ts";
import { createSlurmCommands } from "../../src/training/backends/slurm/slurm-commands.ts";
import { testServices } from "../helpers/test-services.ts";
import { CONSOLE } from "../helpers/demo-stack.ts";

const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

/** A backend over real repositories whose scontrol answers `scontrol` (a job line, or "unknown"); sacct only when given. */
function setup(scontrol: string | "unknown", runStatus: RunStatus = "running", sacct?: string) {
  const services = testServices();
  opened.push(services);
  const { config, runs } = services;
  const events: RunEvent[] = [];
  const transitions = createTransitions({
    db: services.db,
    runs,
    outbox: services.outbox,
    actions: createRunActionsRepo(services.db),
    log: services.log,
    now: Date.now,
    redact: services.redact,
    stopOrderOf: (run) => services.manager.stackOf(run).stopOrder,
  });
  transitions.onEvent((e) => events.push(e));
  const commands = createSlurmCommands(async (file) => {
    if (file === "sacct")
      return sacct === undefined
        ? { exitCode: 1, stdout: "", stderr: "Slurm accounting storage is disabled" }
        : { exitCode: 0, stdout: sacct, stderr: "" };
    if (file !== "scontrol") return { exitCode: 0, stdout: "", stderr: "" };
    return scontrol === "unknown"
      ? { exitCode: 1, stdout: "", stderr: "slurm_load_jobs error: Invalid job id specified" }
      : { exitCode: 0, stdout: scontrol, stderr: "" };
  });
  const backend = createSlurmBackend({
    config,
    runs,
    log: services.log,
    now: Date.now,
    stacks: { current: services.manager.stackOf({ id: "-", stack: "atropos-tinker" }), of: services.manager.stackOf },
    logPath: (runId, c) => path.join(config.logsDir, `${c}_${runId}.log`),
    move: transitions.move,
    onEnded: () => undefined,
    commands,
    outcomeGraceMs: 0,
  });
  runs.insert({
    id: "run00001",
    channel: CONSOLE,
    environment: "arithmetic",
    config: {},
    status: runStatus,
    createdBy: "alice",
    backend: "slurm",
  });
  const run = runs.update("run00001", { jobId: "7" });
  const writeStatus = (status: Record<string, unknown>) => {
    const file = jobFiles(config.logsDir, config.runConfigsDir, run.id).status;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(status));
  };
  return { backend, run, runs, events, writeStatus };
}

const line = (state: string, extra = "") =>
  `JobId=7 JobName=rl-run00001 JobState=${state} Reason=None ExitCode=0:0 NodeList=vm TimeLimit=00:01:00 ${extra}`;

describe("slurm backend verdicts", () => {
  it("fails a run whose job hit its time limit (the launcher saw only a SIGTERM)", async () => {
    const { backend, run, runs, events, writeStatus } = setup(line("TIMEOUT"));
    writeStatus({ state: "stopped", reached_running: true, message: "The job was stopped (SIGTERM)." });
    await backend.reconcile(run, false);
    expect(runs.get(run.id)).toMatchObject({ status: "failed" });
    expect(events.map((e) => e.kind)).toEqual(["failed"]);
    expect(events[0]!.message).toMatch(/time limit \(00:01:00\).*RL_SLURM_TIME_LIMIT/);
  });

  it("completes a run that finished while the bot was away, after Slurm forgot the job", async () => {
    const { backend, run, runs, events, writeStatus } = setup("unknown");
    writeStatus({ state: "completed", reached_running: true, component: "trainer", exit_code: 0 });
    await backend.reconcile(run, false);
    expect(runs.get(run.id)!.status).toBe("completed");
    expect(events.map((e) => e.kind)).toEqual(["completed"]);
  });

  it("emits started before the outcome when a starting run got there between two looks", async () => {
    const { backend, run, events, writeStatus } = setup(line("COMPLETED"), "starting");
    writeStatus({
      state: "failed",
      reached_running: true,
      component: "env",
      exit_code: 2,
      message: "env exited with code 2.",
    });
    await backend.reconcile(run, false);
    expect(events.map((e) => [e.kind, e.component])).toEqual([
      ["started", undefined],
      ["failed", "env"],
    ]);
    expect(events[1]).toMatchObject({ exitCode: 2, message: "env exited with code 2." });
  });

  it("asks accounting how a job scontrol forgot has ended, when the cluster keeps accounting", async () => {
    const { backend, run, runs, events, writeStatus } = setup("unknown", "running", "7|NODE_FAIL|0:0|vm|None\n");
    writeStatus({ state: "running", reached_running: true });
    await backend.reconcile(run, false);
    expect(runs.get(run.id)!.status).toBe("failed");
    expect(events[0]!.message).toMatch(/\(NODE_FAIL, exit code 0\)/);
  });

  it("fails a run whose job died without a word from its launcher (node failure)", async () => {
    const { backend, run, runs, events, writeStatus } = setup(line("NODE_FAIL"));
    writeStatus({ state: "running", reached_running: true });
    await backend.reconcile(run, false);
    expect(runs.get(run.id)).toMatchObject({ status: "failed" });
    expect(events[0]!.message).toMatch(/ended \(NODE_FAIL, exit code 0\) before its launcher recorded an outcome/);
  });

  it("leaves a pending job's run starting and shows the reason", async () => {
    const { backend, run, runs, events } = setup(
      "JobId=7 JobState=PENDING Reason=Priority ExitCode=0:0 NodeList=",
      "starting",
    );
    await backend.reconcile(run, false);
    expect(runs.get(run.id)!.status).toBe("starting");
    expect(events).toEqual([]);
    const view = await backend.view(runs.get(run.id)!);
    expect(view.job).toMatchObject({ job_id: "7", state: "PENDING", reason: "Priority" });
    expect(view.processes.trainer).toBe("pending in the Slurm queue (Priority)");
  });

  it("fails the run with sbatch's reason when the job cannot be submitted", async () => {
    const services = testServices({ RL_BACKEND: "slurm" }, { processEnv: { PATH: "/nonexistent" } });
    opened.push(services);
    await services.env.selectEnvironment(CONSOLE, "arithmetic");
    const failed = new Promise<RunEvent>((resolve) =>
      services.manager.onEvent((e) => e.kind === "failed" && resolve(e)),
    );
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run).toMatchObject({ status: "failed", backend: "slurm", jobId: undefined });
    expect(run.error).toMatch(/sbatch refused the job/);
    expect((await failed).component).toBeUndefined();
  });
});

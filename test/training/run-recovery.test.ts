import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { processStartTime } from "../../src/process/process-info.ts";
import { CONSOLE, nextEvent, startDemo, type DemoStack } from "../helpers/demo-stack.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { trackProcess } from "../helpers/children.ts";

const stacks: DemoStack[] = [];
const strays: number[] = [];
afterEach(async () => {
  for (const s of stacks.splice(0)) {
    for (const run of s.services.runs.listByStatus(["queued", "starting", "running"]))
      await s.services.manager.stop(run.id, "test cleanup").catch(() => undefined);
    await s.services.close();
  }
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

describe("restart recovery", () => {
  it("re-attaches to a running run after a restart, and the new process stops it", async () => {
    const first = await startDemo({ totalSteps: 400, stepSeconds: 0.1 });
    await first.services.env.selectEnvironment(CONSOLE, "arithmetic");
    const run = await first.services.manager.start({ channel: CONSOLE, userId: "alice" });
    const procs = first.services.db.prepare("SELECT pid FROM run_processes WHERE run_id = ?").all(run.id) as Array<{
      pid: number;
    }>;
    await first.services.close(); // the bot goes away; the run carries on

    for (const p of procs) expect(processStartTime(p.pid)).toBeDefined();
    const second = await startDemo({ cwd: first.cwd, lockedFile: first.lockedFile });
    stacks.push(second);
    await second.services.manager.recover();
    expect(second.services.runs.get(run.id)!.status).toBe("running");
    const status = await second.services.report.status(second.services.runs.get(run.id)!);
    expect(status.processes).toEqual({ api: "running", trainer: "running", env: "running" });

    const stopped = await second.services.manager.stop(run.id, "alice");
    expect(stopped.status).toBe("stopped");
    for (const p of procs) expect(processStartTime(p.pid)).toBeUndefined();
  });

  it("marks a run lost when its pid now belongs to another process, and leaves that process alone", async () => {
    const stack = await startDemo();
    stacks.push(stack);
    const { services } = stack;
    const stranger = trackProcess(spawn("sleep", ["60"], { stdio: "ignore", detached: true }));
    strays.push(stranger.pid!);
    services.runs.insert({
      id: "deadbeef",
      channel: CONSOLE,
      environment: "arithmetic",
      config: {},
      status: "running",
      createdBy: "alice",
    });
    for (const component of ["api", "trainer", "env"] as const) {
      // Same pid, but a start time from before: the run's process died and the pid was reused.
      services.processes.upsert({
        runId: "deadbeef",
        component,
        pid: stranger.pid!,
        startTime: "1",
        logPath: "/nonexistent",
        state: "ready",
      });
    }
    const lost = new Promise<string>((resolve) =>
      services.manager.onEvent((e) => e.kind === "lost" && resolve(e.message)),
    );
    await services.manager.recover();
    expect(services.runs.get("deadbeef")!.status).toBe("lost");
    expect(await lost).toMatch(/lost track/);
    expect(processStartTime(stranger.pid!)).toBeDefined();
  });
});

/** The trainer's last step outlasts the wait for the environment's exit, the second bot's start and its look at the
 * run (seconds on a loaded machine), so the trainer is still in it when the restarted bot looks. */
const LAST_STEP_SECONDS = 10;

describe("recovery is not a loss", () => {
  it("re-attaches a run whose environment finished while its trainer is still in its last step, and it completes", async () => {
    const first = await startDemo({ totalSteps: 4, lastStepSeconds: LAST_STEP_SECONDS });
    await first.services.env.selectEnvironment(CONSOLE, "arithmetic");
    const run = await first.services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status).toBe("running");
    const procs = first.services.processes.list(run.id);
    await first.services.close(); // the bot goes away; nothing watches the environment exit
    const env = procs.find((p) => p.component === "env")!;
    const trainer = procs.find((p) => p.component === "trainer")!;
    await waitFor(() => processStartTime(env.pid!) === undefined, "the environment to finish");
    expect(processStartTime(trainer.pid!)).toBe(trainer.startTime);

    const second = await startDemo({ cwd: first.cwd, lockedFile: first.lockedFile });
    stacks.push(second);
    const completed = nextEvent(second.services, "completed", run.id);
    await second.services.manager.recover();
    expect(second.services.runs.get(run.id)!.status).toBe("running");
    await completed;
    await second.services.manager.settled();
    expect(second.services.runs.get(run.id)!.status).toBe("completed");
    expect(readFileSync(second.services.manager.logPath(run.id, "trainer"), "utf8")).toContain("Training complete!");
    for (const p of procs) expect(processStartTime(p.pid!)).toBeUndefined();
  });

  it("a status query on a run nobody watches changes nothing", async () => {
    const first = await startDemo({ totalSteps: 4, lastStepSeconds: LAST_STEP_SECONDS });
    await first.services.env.selectEnvironment(CONSOLE, "arithmetic");
    const run = await first.services.manager.start({ channel: CONSOLE, userId: "alice" });
    const procs = first.services.processes.list(run.id);
    await first.services.close();
    const env = procs.find((p) => p.component === "env")!;
    await waitFor(() => processStartTime(env.pid!) === undefined, "the environment to finish");

    const second = await startDemo({ cwd: first.cwd, lockedFile: first.lockedFile });
    stacks.push(second);
    const status = await second.services.report.status(second.services.runs.get(run.id)!);
    expect(status.status).toBe("running");
    expect(second.services.runs.get(run.id)!.status).toBe("running");
    const trainer = procs.find((p) => p.component === "trainer")!;
    expect(processStartTime(trainer.pid!)).toBe(trainer.startTime);
    await second.services.manager.recover();
    await waitFor(() => second.services.runs.get(run.id)!.status === "completed", "the run to complete");
  });
});

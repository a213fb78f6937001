import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Component } from "../../db/run-processes.ts";
import { processStartTime } from "../../src/process/process-info.ts";
import { stackAddresses } from "../../src/stacks/atropos-tinker/run-config.ts";
import { httpAnswers } from "../../src/training/wait-until.ts";
import { CONSOLE, nextEvent, startDemo, type DemoStack } from "../helpers/demo-stack.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { trackProcess } from "../helpers/children.ts";

const stacks: DemoStack[] = [];
afterEach(async () => {
  for (const s of stacks.splice(0)) {
    for (const run of s.services.runs.listByStatus(["queued", "starting", "running"]))
      await s.services.manager.stop(run.id, "test cleanup").catch(() => undefined);
    await s.services.close();
  }
});

async function demo(options: Parameters<typeof startDemo>[0] = {}) {
  const stack = await startDemo(options);
  stacks.push(stack);
  await stack.services.env.selectEnvironment(CONSOLE, "arithmetic");
  return stack;
}

const pids = (stack: DemoStack, runId: string) =>
  stack.services.db.prepare("SELECT component, pid FROM run_processes WHERE run_id = ?").all(runId) as Array<{
    component: Component;
    pid: number;
  }>;
const running = (pid: number) => processStartTime(pid) !== undefined;

describe("training runs on the demo stack", () => {
  it("runs to completion with the reward rising, and leaves no process behind", async () => {
    const stack = await demo({ totalSteps: 20 });
    const { services } = stack;
    const completed = nextEvent(services, "completed");
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status).toBe("running");
    const event = await completed;
    expect(event.run.id).toBe(run.id);
    const results = await services.report.results(services.runs.get(run.id)!);
    expect(results.status).toBe("completed");
    expect(results.final_weights).toMatch(/^tinker:\/\//);
    const rewards = results.reward_history.map((p) => p.value);
    expect(rewards.length).toBeGreaterThanOrEqual(10);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(rewards.slice(-3))).toBeGreaterThan(mean(rewards.slice(0, 3)));
    await services.manager.settled();
    for (const p of pids(stack, run.id)) expect(running(p.pid)).toBe(false);
  });

  it("stops midway: env, trainer and API all gone", async () => {
    const stack = await demo({ totalSteps: 400, stepSeconds: 0.1 });
    const { services } = stack;
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    await waitFor(async () => ((await services.report.status(services.runs.get(run.id)!)).step ?? 0) >= 2, "two steps");
    const stopped = await services.manager.stop(run.id, "alice");
    expect(stopped.status).toBe("stopped");
    expect(stopped.stoppedBy).toBe("alice");
    const status = await services.report.status(stopped);
    expect(Object.values(status.processes).every((s) => s.startsWith("exited") || s.startsWith("killed"))).toBe(true);
    for (const p of pids(stack, run.id)) expect(running(p.pid)).toBe(false);
  });

  it.each(["env", "trainer", "api"] as const)(
    "fails naming the %s when it is killed, with its log tail",
    async (component) => {
      const stack = await demo({ totalSteps: 400, stepSeconds: 0.1 });
      const { services } = stack;
      const failed = nextEvent(services, "failed");
      const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
      expect(run, run.error).toMatchObject({ status: "running" });
      const victim = pids(stack, run.id).find((p) => p.component === component)!;
      process.kill(victim.pid, "SIGKILL");
      const event = await failed;
      expect(event.component).toBe(component);
      expect(event.signal).toBe("SIGKILL");
      expect(event.message).toContain(component);
      expect(event.logTail?.length).toBeGreaterThan(0);
      expect(services.runs.get(run.id)).toMatchObject({ status: "failed", failedComponent: component });
      // The notice is committed with the failure; the stops it owes follow.
      await services.manager.settled();
      for (const p of pids(stack, run.id)) expect(running(p.pid)).toBe(false);
    },
  );

  it("fails a run whose trainer prints 'Error in step' and still exits 0", async () => {
    const stack = await demo({ totalSteps: 20, fault: "error_in_step:3" });
    const failed = nextEvent(stack.services, "failed");
    await stack.services.manager.start({ channel: CONSOLE, userId: "alice" });
    const event = await failed;
    expect(event.component).toBe("trainer");
    expect(event.message).toMatch(/Error in step 3/);
  });

  it("fails a run whose trainer logs a step error, then more than 4 MiB, and exits 0", async () => {
    const stack = await demo({ totalSteps: 20, fault: "flood_after_error:3" });
    const failed = nextEvent(stack.services, "failed");
    const run = await stack.services.manager.start({ channel: CONSOLE, userId: "alice" });
    const event = await failed;
    expect(event.component).toBe("trainer");
    expect(event.message).toMatch(/reported a step error and stopped: Error in step 3/);
    const log = stack.services.config.logsDir;
    expect(statSync(path.join(log, `trainer_${run.id}.log`)).size).toBeGreaterThan(5 * 1024 * 1024);
    // The steps before the error are on its chart, 5 MiB above the log's end.
    const results = await stack.services.report.results(stack.services.runs.get(run.id)!);
    expect(results.reward_history.map((p) => p.step)).toEqual([0, 1, 2]);
  });

  it("keeps every step of a verbose run (more than 4 MiB of log) on its chart", async () => {
    const stack = await demo({ totalSteps: 6, fault: "verbose:1200" });
    const completed = nextEvent(stack.services, "completed");
    const run = await stack.services.manager.start({ channel: CONSOLE, userId: "alice" });
    await completed;
    expect(statSync(path.join(stack.services.config.logsDir, `trainer_${run.id}.log`)).size).toBeGreaterThan(
      6 * 1024 * 1024,
    );
    const results = await stack.services.report.results(stack.services.runs.get(run.id)!);
    expect(results.reward_history.map((p) => p.step)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("holds a run's end the disk refused, stops the rest of the run at once, and records it once a write goes through", async () => {
    // The crash comes after the start has finished (the environment's 2 s settle), so it is a running run's end.
    const stack = await demo({ totalSteps: 40, stepSeconds: 0.2, fault: "crash_in_step:20" });
    const { services } = stack;
    // The database refuses the run's end as a full disk does (better-sqlite3's SqliteError carries SQLITE_FULL).
    const transition = services.runs.transition.bind(services.runs);
    let refuse = true;
    services.runs.transition = (id, from, patch) => {
      if (refuse && patch.status === "failed")
        throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      return transition(id, from, patch);
    };
    const failed = nextEvent(services, "failed");
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    await waitFor(() => pids(stack, run.id).every((p) => !running(p.pid)), "every process of the run to be stopped");
    expect(services.runs.get(run.id)?.status).toBe("running");
    refuse = false;
    const event = await failed;
    expect(event.component).toBe("trainer");
    expect(event.message).toMatch(/trainer exited with code 1/);
    expect(services.runs.get(run.id)?.status).toBe("failed");
  });

  it("fails a start whose trainer never becomes ready, within the readiness timeout", async () => {
    // The timeout is per component: the API's Python must be ready within it too (up to 1.4 s on a loaded machine).
    const stack = await demo({ fault: "no_health", env: { RL_READY_TIMEOUT_SECONDS: "8" } });
    const run = await stack.services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status).toBe("failed");
    expect(run.failedComponent).toBe("trainer");
    expect(run.error).toMatch(/not ready after 8 s/);
    for (const p of pids(stack, run.id)) expect(running(p.pid)).toBe(false);
  });

  it("queues a second run while the first holds the ports, then starts it", async () => {
    const stack = await demo({ totalSteps: 400, stepSeconds: 0.1 });
    const { services } = stack;
    const first = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    const second = await services.manager.start({ channel: CONSOLE, userId: "bob" });
    expect(second.status).toBe("queued");
    const started = nextEvent(services, "started", second.id);
    await services.manager.stop(first.id, "alice");
    await started;
    expect(services.runs.get(second.id)!.status).toBe("running");
  });

  it("refuses to start while an unrelated server holds the API port, naming the port and its process; then starts once it is gone", async () => {
    const stack = await demo();
    const { services } = stack;
    const { apiPort, apiUrl } = stackAddresses(services.lockedFields);
    // A stray server that answers 200 on "/", as the trajectory API's readiness probe expects.
    const stray = trackProcess(
      spawn("python3", ["-m", "http.server", String(apiPort), "--bind", "127.0.0.1"], {
        stdio: "ignore",
        detached: true,
      }),
    );
    try {
      await waitFor(() => httpAnswers(`${apiUrl}/`), "the stray server");
      const progress: string[] = [];
      const run = await services.manager.start({
        channel: CONSOLE,
        userId: "alice",
        progress: async (t) => void progress.push(t),
      });
      expect(run.status).toBe("failed");
      expect(run.error).toContain(`Port ${apiPort}`);
      expect(run.error).toContain(`pid ${stray.pid}`);
      expect(run.error).toContain("http.server");
      expect(progress.filter((t) => t.includes("ready"))).toEqual([]);
      expect(pids(stack, run.id)).toEqual([]);
    } finally {
      stray.kill("SIGKILL");
    }
    await waitFor(async () => !(await httpAnswers(`${apiUrl}/`)), "the stray server to go");
    const next = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(next.status).toBe("running");
  });
});

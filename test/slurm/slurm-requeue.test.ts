// Preemption and time limits on a real one-machine Slurm with RL_SLURM_REQUEUE: `scontrol requeue` stands for a
// preemption, a one-minute --time for the limit. A cookbook run requeued on both goes on as one run from its
// checkpoints; the cap on requeues ends a run that keeps being requeued; an atropos-tinker run cannot resume and fails.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Services } from "../../src/services.ts";
import { recipeLogDir } from "../../src/stacks/tinker-cookbook/cookbook-stack.ts";
import { jobFiles } from "../../src/training/backends/slurm/job-spec.ts";
import { TERMINAL_STATES, restartsOf } from "../../src/training/backends/slurm/slurm-commands.ts";
import type { RunEvent } from "../../src/training/run-events.ts";
import { delay } from "../../src/training/wait-until.ts";
import { selectRecipe, startCookbook, type RecipePace } from "../helpers/cookbook.ts";
import { CONSOLE, nextEvent, startDemo, stopLiveRuns, type DemoStack } from "../helpers/demo-stack.ts";
import { SLURM_ENV, releaseRequeued, scontrol, slurmMissing, untilJob } from "../helpers/slurm.ts";
import { waitFor } from "../helpers/wait-for.ts";

const missing = slurmMissing();
// CI starts Slurm in .ci/run: there a missing Slurm is a failure, never a skip.
const skip = missing !== undefined && !process.env.CI;
if (skip) console.warn(`Skipping the Slurm requeue tests: ${missing}`);

const REQUEUE_ENV = { ...SLURM_ENV, RL_SLURM_REQUEUE: "true" };

const stacks: DemoStack[] = [];
afterEach(async () => {
  for (const s of stacks.splice(0)) {
    await stopLiveRuns(s.services);
    await s.services.close();
  }
});

async function cookbook(env: Record<string, string>, pace: RecipePace): Promise<DemoStack> {
  const stack = await startCookbook({ env: { ...REQUEUE_ENV, ...env } });
  stacks.push(stack);
  await selectRecipe(stack.services, CONSOLE, pace);
  return stack;
}

/** The run's notices in its thread, in order: each kind with the attempt it belongs to. */
const noticesOf = (services: Services, id: string): string[] =>
  (
    services.db
      .prepare("SELECT dedupe_key FROM outbox WHERE run_id = ? AND kind = 'notice' ORDER BY id")
      .all(id) as Array<{
      dedupe_key: string;
    }>
  ).map((r) => r.dedupe_key.split(":").slice(2).join(":"));

const stepsOf = (services: Services, id: string): number[] =>
  readFileSync(path.join(recipeLogDir(services.config, id), "metrics.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { step: number }).step);

/** Wait until the run has done `steps` steps in its current attempt's log. */
async function untilStep(services: Services, id: string, steps: number): Promise<void> {
  await waitFor(
    async () => ((await services.report.status(services.runs.get(id)!)).step ?? 0) >= steps,
    `run ${id} to reach step ${steps}`,
    { everyMs: 100 },
  );
}

describe.skipIf(skip)("requeued Slurm jobs (RL_SLURM_REQUEUE)", () => {
  it("goes on as one run from its checkpoints when preempted and when it reaches its time limit, to completion", async () => {
    // 120 steps of 0.4 s: longer than the one-minute limit's window, so the limit's warning always comes.
    const steps = 120;
    const stack = await cookbook(
      { RL_SLURM_TIME_LIMIT: "1", RL_SLURM_SIGNAL_SECONDS: "20", RL_SLURM_MAX_REQUEUES: "6" },
      { steps, stepSeconds: 0.4 },
    );
    const { services } = stack;
    const events: RunEvent[] = [];
    services.manager.onEvent((e) => events.push(e));
    const completed = nextEvent(services, "completed");
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status).toBe("running");
    const jobId = run.jobId!;

    // A preemption: Slurm takes the node back and requeues the job; the launcher forwards the SIGTERM, the recipe saves.
    await untilStep(services, run.id, 5);
    const preempted = nextEvent(services, "queued", run.id);
    scontrol("requeue", jobId);
    const first = await preempted;
    expect(first.message).toMatch(
      new RegExp(
        `^Run ${run.id} was preempted at step \\d+; requeued \\(Slurm job ${jobId}, requeue 1 of 6\\)\\. It continues from checkpoint \\d{6} \\(step \\d+\\) when the job runs again\\.$`,
      ),
    );
    expect(services.runs.get(run.id)).toMatchObject({ status: "starting", attempt: 1, jobRequeues: 1, jobId });
    // Slurm's time-limit warning may come up to a minute early, so it can stop the attempt after the preemption while
    // its recipe is still starting: that attempt is requeued again, never told as resumed; the next one is.
    let requeue = 1;
    for (;;) {
      const resumedAt = nextEvent(services, "resumed", run.id);
      const requeuedAt = nextEvent(services, "queued", run.id);
      await releaseRequeued(jobId, requeue);
      const next = await Promise.race([resumedAt, requeuedAt]);
      if (next.kind === "resumed") {
        expect(next.message).toMatch(
          new RegExp(
            `^Run ${run.id} resumed at step ${next.run.resumedStep} on node \\S+ \\(Slurm job ${jobId}, requeue ${requeue}\\)\\.$`,
          ),
        );
        if (requeue === 1) expect(next.run.resumedStep).toBe(first.run.resumedStep);
        break;
      }
      requeue++;
      expect(next.message).toMatch(
        new RegExp(
          `^Run ${run.id} reached its time limit \\(00:01:00\\) at step \\d+; requeued \\(Slurm job ${jobId}, requeue ${requeue} of 6\\)\\.`,
        ),
      );
    }

    // The time limit: the warning stops the recipe (it saves), the job ends, the bot requeues it; once or more, as
    // Slurm's warning may come up to a minute early.
    for (let restarts = requeue + 1; services.runs.get(run.id)!.status !== "completed"; restarts++) {
      const limited = await Promise.race([nextEvent(services, "queued", run.id), completed]);
      if (limited.kind === "completed") break;
      expect(limited.message).toMatch(
        new RegExp(
          `^Run ${run.id} reached its time limit \\(00:01:00\\) at step \\d+; requeued \\(Slurm job ${jobId}, requeue ${restarts} of 6\\)\\.`,
        ),
      );
      await releaseRequeued(jobId, restarts);
    }
    const done = await completed;
    expect(done.message).toMatch(new RegExp(`^Training complete after ${steps} steps`));

    const row = services.runs.get(run.id)!;
    const requeues = row.jobRequeues;
    // Preempted once, at its time limit at least once: one run, one job; each attempt told once as requeued (queued),
    // and once as resumed on its node when its launcher got the run running. Slurm's time-limit warning may come up
    // to a minute early, so an attempt can be stopped while its recipe is still starting: the launcher's own output
    // (appended by each start) says which attempts reached running, and only those are told as resumed.
    expect(requeues).toBeGreaterThanOrEqual(2);
    expect(row).toMatchObject({ status: "completed", jobId, attempt: requeues });
    expect(services.runs.listAll(10)).toHaveLength(1);
    const launcherOutput = readFileSync(jobFiles(services.config.logsDir, "", run.id).output, "utf8");
    const reachedRunning = launcherOutput
      .split("\n")
      .filter((line) => line.includes("all components are ready; the run is running")).length;
    const told = noticesOf(services, run.id);
    const expected = ["started"];
    for (let a = 1; a <= requeues; a++) {
      expected.push(`${a}:queued`);
      if (told.includes(`${a}:resumed`)) expected.push(`${a}:resumed`);
    }
    expect(told).toEqual([...expected, `${requeues}:completed`]);
    // The first start and every resumed attempt reached running; the last attempt, which completed, among them.
    expect(told.filter((k) => k.endsWith(":resumed"))).toHaveLength(reachedRunning - 1);
    expect(told).toContain(`${requeues}:resumed`);
    expect(events.filter((e) => e.kind === "failed")).toEqual([]);
    // The recipe saved at each SIGTERM and went on from there: every step once, in order.
    expect(stepsOf(services, run.id)).toEqual(Array.from({ length: steps }, (_, i) => i));
    const job = await untilJob(jobId, (j) => j === "unknown" || TERMINAL_STATES.has(j.state), "the job to end");
    expect(job === "unknown" || (job.state === "COMPLETED" && restartsOf(job) === requeues)).toBe(true);
  });

  it("ends a run whose job keeps being requeued past RL_SLURM_MAX_REQUEUES, saying so, its job cancelled", async () => {
    const stack = await cookbook({ RL_SLURM_MAX_REQUEUES: "1" }, { steps: 400, stepSeconds: 0.1 });
    const { services } = stack;
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    const jobId = run.jobId!;
    await untilStep(services, run.id, 3);
    const requeued = nextEvent(services, "queued", run.id);
    scontrol("requeue", jobId);
    await requeued;
    const resumed = nextEvent(services, "resumed", run.id);
    await releaseRequeued(jobId, 1);
    await resumed;

    await untilStep(services, run.id, services.runs.get(run.id)!.resumedStep! + 3);
    const failed = nextEvent(services, "failed", run.id);
    scontrol("requeue", jobId);
    const event = await failed;
    expect(event.message).toMatch(
      new RegExp(
        `^Run ${run.id} was preempted at step \\d+ once more: Slurm requeued job ${jobId} 2 times, more than RL_SLURM_MAX_REQUEUES \\(1\\) allows, so the run ends here and the job is cancelled\\. /rl resume ${run.id} continues it from checkpoint \\d{6} \\(step \\d+\\)\\.$`,
      ),
    );
    expect(services.runs.get(run.id)).toMatchObject({ status: "failed", attempt: 1, jobRequeues: 1 });
    expect(noticesOf(services, run.id)).toEqual(["started", "1:queued", "1:resumed", "1:failed"]);
    // Not left in the queue to run again.
    const job = await untilJob(jobId, (j) => j === "unknown" || TERMINAL_STATES.has(j.state), "the job to end");
    expect(job === "unknown" || job.state === "CANCELLED").toBe(true);
  });

  it("fails an atropos-tinker run that is preempted, with the reason, and cancels its requeued job", async () => {
    const stack = await startDemo({ totalSteps: 400, stepSeconds: 0.2, env: REQUEUE_ENV });
    stacks.push(stack);
    const { services } = stack;
    await services.env.selectEnvironment(CONSOLE, "arithmetic");
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status).toBe("running");
    const failed = nextEvent(services, "failed", run.id);
    await delay(2000);
    scontrol("requeue", run.jobId!);
    const event = await failed;
    expect(event.message).toMatch(
      new RegExp(
        `^Run ${run.id} was preempted at step \\d+ \\(Slurm requeued job ${run.jobId}\\), and the atropos-tinker stack cannot resume \\(tinker-atropos's trainer always starts at step 0\\): the run ends here and the job is cancelled\\. /rl rerun ${run.id} starts it again from step 0\\.$`,
      ),
    );
    expect(services.runs.get(run.id)).toMatchObject({ status: "failed", attempt: 0 });
    expect(noticesOf(services, run.id)).toEqual(["started", "failed"]);
    const job = await untilJob(run.jobId!, (j) => j === "unknown" || TERMINAL_STATES.has(j.state), "the job to end");
    expect(job === "unknown" || job.state === "CANCELLED").toBe(true);
  });
});

// Resuming a run: a stopped, failed or lost run continues from its last checkpoint as the same run (id, log folder,
// WandB names, thread), when its stack can resume; launched now, or queued behind live runs.
import type { RunRow, RunsRepo } from "../../../db/runs.ts";
import type { Config } from "../../config.ts";
import type { BudgetGate } from "../../budgets/budget-gate.ts";
import { RESUME_ESTIMATE } from "../../budgets/estimate.ts";
import { RlError } from "../../errors.ts";
import { crashPoint } from "../../process/crash-point.ts";
import type { StackRegistry } from "../../stacks/stack-registry.ts";
import type { Checkpoint, TrainingStack } from "../../stacks/training-stack.ts";
import { carryTrainingTime } from "../../values/training-time.ts";
import { LIVE_STATUSES, type Transitions } from "../lifecycle/transitions.ts";

export const RESUMABLE_STATUSES = ["stopped", "failed", "lost"] as const;

export interface RunResumerDeps {
  config: Config;
  runs: RunsRepo;
  stacks: StackRegistry;
  transitions: Transitions;
  /** Before a run is launched again: what its backend kept of the last attempt is put aside (a job's status file). */
  beforeRelaunch: (run: RunRow) => void;
  launch: (run: RunRow, progress?: (text: string) => Promise<void>) => Promise<RunRow>;
  now: () => number;
  /** Spending limits (concurrent runs, GPU-hours), checked in the resume's own write transaction. */
  budgets?: BudgetGate;
}

/** Why a run cannot be resumed now, or its last checkpoint. */
export async function resumePoint(stack: TrainingStack, run: RunRow): Promise<Checkpoint> {
  if (!stack.canResume) {
    throw new RlError(
      "CONFLICT",
      `Run ${run.id} cannot be resumed: ${stack.resumeNote}. /rl rerun ${run.id} runs it again from step 0.`,
    );
  }
  if (LIVE_STATUSES.includes(run.status) || run.status === "queued")
    throw new RlError("CONFLICT", `Run ${run.id} is ${run.status}; only a stopped, failed or lost run can be resumed.`);
  if (run.status === "completed") {
    throw new RlError(
      "CONFLICT",
      `Run ${run.id} completed; there is nothing left to resume. /rl fork ${run.id} starts a new run from one of its checkpoints.`,
    );
  }
  const saved = (await stack.readCheckpoints(run)).filter((c) => c.path !== undefined);
  const last = saved.at(-1);
  if (!last) {
    throw new RlError(
      "CONFLICT",
      `Run ${run.id} saved no checkpoint before it ended, so it cannot be resumed; /rl rerun ${run.id} runs it again from step 0.`,
    );
  }
  const problem = await stack.checkCheckpoint?.(last);
  if (problem) throw await damagedCheckpoint(stack, run, saved, problem);
  return last;
}

/** The refusal for a run whose last checkpoint is damaged, naming the last one the stack lets the bot call good. */
async function damagedCheckpoint(stack: TrainingStack, run: RunRow, saved: Checkpoint[], problem: string) {
  const last = saved.at(-1)!;
  let good: Checkpoint | undefined;
  for (const c of saved.slice(0, -1).reverse()) {
    if (!(await stack.checkCheckpoint?.(c))) {
      good = c;
      break;
    }
  }
  const next = good
    ? `The last good one is ${good.name} (step ${good.step}): move ${last.path} aside, then /rl resume ${run.id} continues from it.`
    : `No earlier checkpoint is whole: /rl rerun ${run.id} runs it again from step 0.`;
  return new RlError(
    "CONFLICT",
    `Run ${run.id} was not resumed: its last checkpoint ${last.name} (step ${last.step}) is damaged: ${problem}. ${next}`,
    { details: { checkpoint: last.name, ...(good ? { lastGood: good.name } : {}) } },
  );
}

export function createRunResumer(deps: RunResumerDeps) {
  const { config, runs, transitions } = deps;

  return async function resume(
    runId: string,
    by: string,
    progress?: (text: string) => Promise<void>,
    options: { overBudget?: boolean } = {},
  ): Promise<{ run: RunRow; checkpoint: Checkpoint }> {
    const run = runs.get(runId);
    if (!run) throw new RlError("NOT_FOUND", `No run "${runId}". See /rl runs.`);
    if (run.stack !== deps.stacks.current.id) {
      throw new RlError(
        "CONFLICT",
        `Run ${run.id} belongs to the ${run.stack} stack and this bot runs ${deps.stacks.current.id}: resume it from a bot started with RL_STACK=${run.stack}.`,
      );
    }
    const checkpoint = await resumePoint(deps.stacks.of(run), run);
    const queued = runs.countByStatus(LIVE_STATUSES) >= config.maxConcurrentRuns || runs.countByStatus(["queued"]) > 0;
    const step = checkpoint.step;
    // One compare-and-set: of two identical requests only one moves the run; the other finds it live.
    const moved = transitions.move(
      run.id,
      RESUMABLE_STATUSES,
      {
        status: queued ? "queued" : "starting",
        attempt: run.attempt + 1,
        resumedBy: by,
        resumedStep: step,
        error: undefined,
        failedComponent: undefined,
        stoppedBy: undefined,
        ...carryTrainingTime(run, deps.now()),
        jobId: undefined,
      },
      {
        // One "resumed" notice per attempt: now, or once a queued attempt runs (its launch posts it then).
        notice: queued
          ? {
              kind: "queued",
              message: `Run ${run.id} will resume from checkpoint ${checkpoint.name} (step ${step}), asked by ${by}; it is queued behind the live runs.`,
            }
          : {
              kind: "resumed",
              message: `Run ${run.id} resumes from checkpoint ${checkpoint.name} (step ${step}), asked by ${by}.`,
            },
      },
      // The run's own starter is the person whose budget it spends again.
      () => deps.budgets?.enforce(run.channel, run.createdBy, RESUME_ESTIMATE, options.overBudget),
    );
    if (!moved) {
      const now = runs.get(run.id)!;
      throw new RlError("CONFLICT", `Run ${run.id} is ${now.status} now; it was resumed or started by someone else.`);
    }
    crashPoint("resume:committed");
    deps.beforeRelaunch(moved);
    crashPoint("resume:relaunching");
    if (queued) return { run: moved, checkpoint };
    return { run: await deps.launch(moved, progress), checkpoint };
  };
}

export type ResumeRun = ReturnType<typeof createRunResumer>;

// A run's job that Slurm requeued (a preemption, `scontrol requeue`) or that reached its time limit: one more attempt of
// the same run from its last checkpoint where its stack can resume (RL_SLURM_REQUEUE), else the run ends failed saying why.
import type { RunRow } from "../../../../db/runs.ts";
import { slurmTimeSeconds, type Config } from "../../../config.ts";
import type { Logger } from "../../../log.ts";
import type { StackRegistry } from "../../../stacks/stack-registry.ts";
import type { Checkpoint } from "../../../stacks/training-stack.ts";
import { carryTrainingTime } from "../../../values/training-time.ts";
import type { Transitions } from "../../lifecycle/transitions.ts";
import type { Snapshot } from "./job-snapshots.ts";
import { restartsOf, type SlurmCommands, type SlurmJob } from "./slurm-commands.ts";
import type { SlurmOutcomes } from "./slurm-outcomes.ts";

export interface JobRequeuerDeps {
  config: Config;
  log: Logger;
  commands: SlurmCommands;
  stacks: StackRegistry;
  move: Transitions["move"];
  fail: SlurmOutcomes["fail"];
  now: () => number;
}

/** What the watcher timed of the job's last start (running without a status file, ended without an outcome) is not the next one's. */
function forgetLastStart(snap: Snapshot): void {
  snap.runningWithoutStatusSince = undefined;
  snap.endedWithoutOutcomeSince = undefined;
}

/** Slurm may send the warning up to 60 s before it was asked to; a little more for the launcher's own stop. */
const SIGNAL_SLACK_SECONDS = 90;

export function createJobRequeuer(deps: JobRequeuerDeps) {
  const { config, log, commands } = deps;
  const { maxRequeues } = config.slurm;

  async function whereItWas(run: RunRow): Promise<{ step: number; checkpoint?: Checkpoint }> {
    const stack = deps.stacks.of(run);
    const [progress, checkpoints] = await Promise.all([
      stack.readProgress(run).catch(() => undefined),
      stack.readCheckpoints(run).catch(() => []),
    ]);
    return { step: progress?.step ?? 0, checkpoint: checkpoints.findLast((c) => c.path !== undefined) };
  }

  const resumeWith = (run: RunRow, checkpoint: Checkpoint | undefined) =>
    checkpoint
      ? `/rl resume ${run.id} continues it from checkpoint ${checkpoint.name} (step ${checkpoint.step}).`
      : `/rl rerun ${run.id} runs it again from step 0.`;

  /**
   * The run's next attempt on the requeued job: it stays one run. Its thread hears of the requeue now, as queued (the job
   * may wait long), and of the attempt once, as resumed, when the job runs again and the node is known.
   */
  function nextAttempt(run: RunRow, restarts: number, what: string, at: { step: number; checkpoint?: Checkpoint }) {
    const from = at.checkpoint
      ? `It continues from checkpoint ${at.checkpoint.name} (step ${at.checkpoint.step}) when the job runs again.`
      : "It starts again from step 0 (no checkpoint was saved yet) when the job runs again.";
    const moved = deps.move(
      run.id,
      ["starting", "running"],
      {
        status: "starting",
        attempt: run.attempt + 1,
        jobRequeues: restarts,
        resumedBy: "Slurm",
        resumedStep: at.checkpoint?.step ?? 0,
        ...carryTrainingTime(run, deps.now()),
      },
      {
        notice: {
          kind: "queued",
          message: `Run ${run.id} ${what} at step ${at.step}; requeued (Slurm job ${run.jobId}, requeue ${restarts} of ${maxRequeues}). ${from}`,
        },
      },
    );
    if (moved) log.info("a run's Slurm job was requeued", { runId: run.id, jobId: run.jobId, restarts });
  }

  return {
    /** The job when Slurm restarted it since the bot last followed it (its `Restarts` grew). */
    requeuedJob: (run: RunRow, job: SlurmJob | undefined): SlurmJob | undefined =>
      job && restartsOf(job) > run.jobRequeues ? job : undefined,

    /**
     * Follow a requeue Slurm made (preemption, an admin's `scontrol requeue`): the next attempt, or the run's end when
     * its stack cannot resume or the job was requeued more than RL_SLURM_MAX_REQUEUES times. True once the run ended.
     */
    async followRequeue(run: RunRow, job: SlurmJob, snap: Snapshot): Promise<boolean> {
      const restarts = restartsOf(job);
      const stack = deps.stacks.of(run);
      const at = await whereItWas(run);
      forgetLastStart(snap);
      let why: string | undefined;
      if (!stack.canResume)
        why = `Run ${run.id} was preempted at step ${at.step} (Slurm requeued job ${run.jobId}), and the ${stack.id} stack cannot resume (${stack.resumeNote}): the run ends here and the job is cancelled. /rl rerun ${run.id} starts it again from step 0.`;
      else if (restarts > maxRequeues)
        why = `Run ${run.id} was preempted at step ${at.step} once more: Slurm requeued job ${run.jobId} ${restarts} times, more than RL_SLURM_MAX_REQUEUES (${maxRequeues}) allows, so the run ends here and the job is cancelled. ${resumeWith(run, at.checkpoint)}`;
      if (why) {
        // Cancelled before the run is failed: a bot dying in between leaves a cancelled job, never a training orphan.
        await commands.cancel(job.jobId);
        await deps.fail(run, { message: why });
        return true;
      }
      nextAttempt(run, restarts, "was preempted", at);
      return false;
    },

    /**
     * The job ended at its time limit (Slurm's TIMEOUT, or the launcher stopped by the warning near it) without the bot
     * asking: with RL_SLURM_REQUEUE and a stack that can resume, requeue it as the run's next attempt. Undefined when it
     * was no time limit (or requeueing is off): the caller judges it as before; else true once the run ended.
     */
    async requeueAtLimit(run: RunRow, job: SlurmJob, snap: Snapshot): Promise<boolean | undefined> {
      if (!config.slurm.requeue || !run.jobId) return undefined;
      const limit = job.fields.TimeLimit ? slurmTimeSeconds(job.fields.TimeLimit) : undefined;
      const ran = job.fields.RunTime ? slurmTimeSeconds(job.fields.RunTime) : undefined;
      const atLimit =
        job.state === "TIMEOUT" ||
        (limit !== undefined && ran !== undefined && ran + config.slurm.signalSeconds + SIGNAL_SLACK_SECONDS >= limit);
      if (!atLimit) return undefined;
      const stack = deps.stacks.of(run);
      const at = await whereItWas(run);
      const what = `reached its time limit (${job.fields.TimeLimit ?? "?"})`;
      let why: string | undefined;
      if (!stack.canResume)
        why = `Run ${run.id} ${what} at step ${at.step} (Slurm job ${run.jobId}), and the ${stack.id} stack cannot resume (${stack.resumeNote}): the run ends here. Raise RL_SLURM_TIME_LIMIT for longer runs; /rl rerun ${run.id} starts it again from step 0.`;
      else if (run.jobRequeues >= maxRequeues)
        why = `Run ${run.id} ${what} at step ${at.step} after ${run.jobRequeues} requeues of Slurm job ${run.jobId}, the most RL_SLURM_MAX_REQUEUES (${maxRequeues}) allows: the run ends here. ${resumeWith(run, at.checkpoint)}`;
      if (!why) {
        try {
          await commands.requeue(run.jobId);
        } catch (err) {
          why = `Run ${run.id} ${what} at step ${at.step} and Slurm job ${run.jobId} could not be requeued (${(err as Error).message}). ${resumeWith(run, at.checkpoint)}`;
        }
      }
      if (why) {
        await deps.fail(run, { message: why });
        return true;
      }
      forgetLastStart(snap);
      nextAttempt(run, run.jobRequeues + 1, what, at);
      return false;
    },
  };
}

export type JobRequeuer = ReturnType<typeof createJobRequeuer>;

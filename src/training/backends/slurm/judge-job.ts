// What the latest look at a run's job means for the run: started, completed, failed, stopped outside the bot, or lost.
import type { RunsRepo } from "../../../../db/runs.ts";
import type { Config } from "../../../config.ts";
import type { JobFiles } from "./job-spec.ts";
import { currentStatus, isComponent, isOutcome } from "./job-status.ts";
import type { Snapshot } from "./job-snapshots.ts";
import type { JobRequeuer } from "./requeue-job.ts";
import { TERMINAL_STATES, type SlurmCommands } from "./slurm-commands.ts";
import type { SlurmOutcomes } from "./slurm-outcomes.ts";

export interface JobJudgeDeps {
  config: Config;
  runs: RunsRepo;
  commands: SlurmCommands;
  outcomes: SlurmOutcomes;
  requeuer: JobRequeuer;
  files: (runId: string) => JobFiles;
  /** How long an ended job may go without its launcher's outcome in the status file (a shared filesystem may lag). */
  outcomeGraceMs: number;
}

export function createJobJudge(deps: JobJudgeDeps) {
  const { config, runs, commands, files, outcomeGraceMs, requeuer } = deps;
  const { markStarted, fail, complete, lose, endedOutside } = deps.outcomes;

  /** Decide what the latest look at the job means for the run; true once the run has ended. */
  return async function decide(runId: string, snap: Snapshot): Promise<boolean> {
    let run = runs.get(runId);
    if (!run || (run.status !== "starting" && run.status !== "running")) return true;
    const { job } = snap;
    const slurmJob = job === "unknown" ? undefined : job;
    const requeuedJob = requeuer.requeuedJob(run, slurmJob);
    if (requeuedJob) return requeuer.followRequeue(run, requeuedJob, snap);
    // A requeued job's next start writes over the status file: what an earlier start left is not this start's.
    const status = currentStatus(snap.status, run.jobRequeues);
    if (status) snap.runningWithoutStatusSince = undefined;
    if (run.status === "starting" && status?.reached_running)
      run = markStarted(run, status.node ?? slurmJob?.node ?? undefined);
    if (status && isOutcome(status.state)) {
      if (status.state === "completed") {
        await complete(run);
        return true;
      }
      if (status.state === "failed") {
        await fail(run, {
          component: isComponent(status.component) ? status.component : undefined,
          message: status.message ?? "The job's launcher reported a failure.",
          exitCode: status.exit_code ?? undefined,
          signal: status.signal ?? undefined,
        });
        return true;
      }
      // Stopped by a signal the bot did not send: wait for Slurm's verdict (CANCELLED or TIMEOUT).
      if (slurmJob && !TERMINAL_STATES.has(slurmJob.state)) return false;
      const requeued = slurmJob && (await requeuer.requeueAtLimit(run, slurmJob, snap));
      if (requeued !== undefined) return requeued;
      await endedOutside(run, slurmJob);
      return true;
    }
    if (job === "unknown") {
      // scontrol forgets ended jobs; accounting, where the cluster keeps it, still knows how the job ended.
      const accounted = await commands.account(run.jobId!).catch(() => undefined);
      if (accounted && TERMINAL_STATES.has(accounted.state)) {
        await endedOutside(run, accounted);
        return true;
      }
      lose(run, `Slurm no longer knows job ${run.jobId}, and it left no outcome in ${files(run.id).status}.`);
      return true;
    }
    if (slurmJob && TERMINAL_STATES.has(slurmJob.state)) {
      snap.endedWithoutOutcomeSince ??= Date.now();
      if (Date.now() - snap.endedWithoutOutcomeSince < outcomeGraceMs) return false;
      const requeued = await requeuer.requeueAtLimit(run, slurmJob, snap);
      if (requeued !== undefined) return requeued;
      await endedOutside(run, slurmJob);
      return true;
    }
    if (slurmJob?.state === "RUNNING" && !status) {
      snap.runningWithoutStatusSince ??= Date.now();
      if (Date.now() - snap.runningWithoutStatusSince > config.readyTimeoutMs) {
        await commands.cancel(run.jobId!);
        await fail(run, {
          message: `Slurm job ${run.jobId} runs on ${slurmJob.node ?? "its node"} but wrote no status file to ${files(run.id).status}: is RL_DATA_DIR on a filesystem the compute nodes see? The job was cancelled.`,
        });
        return true;
      }
    }
    return false;
  };
}

export type JobJudge = ReturnType<typeof createJobJudge>;

// A slurm run's endings, with the same transitions and events as the local backend, so notices work unchanged.
import type { Component } from "../../../../db/run-processes.ts";
import type { RunRow, RunsRepo } from "../../../../db/runs.ts";
import type { Logger } from "../../../log.ts";
import { readTailLines } from "../../../metrics/log-tail.ts";
import type { StackRegistry } from "../../../stacks/stack-registry.ts";
import { describeCompletion } from "../../lifecycle/completion-notice.ts";
import type { Notice, Transitions } from "../../lifecycle/transitions.ts";
import type { SlurmJob } from "./slurm-commands.ts";

export interface SlurmOutcomesDeps {
  runs: RunsRepo;
  log: Logger;
  now: () => number;
  logPath: (runId: string, component: Component) => string;
  stacks: StackRegistry;
  /** The job's own output (sbatch --output): the log tail of a failure no component is to blame for. */
  jobOutput: (runId: string) => string;
  move: Transitions["move"];
  onEnded: () => void;
}

export interface Failure {
  component?: Component;
  message: string;
  exitCode?: number;
  signal?: string;
}

const TAIL_LINES = 15;

export function createSlurmOutcomes(deps: SlurmOutcomesDeps) {
  const { runs, log } = deps;

  function markStarted(run: RunRow, node: string | undefined): RunRow {
    const where = `Slurm job ${run.jobId}${node ? ` on ${node}` : ""}`;
    // A resumed attempt is announced once, as resumed: a requeued job's next start says where it resumed (the requeue
    // itself was told as queued); a /rl resume already posted its notice, so the outbox drops this one.
    const notice: Notice =
      run.attempt === 0
        ? { kind: "started", message: `Run ${run.id} of ${run.environment} is running (${where}).` }
        : {
            kind: "resumed",
            message: run.jobRequeues
              ? `Run ${run.id} resumed at step ${run.resumedStep ?? 0} on node ${node ?? "?"} (Slurm job ${run.jobId}, requeue ${run.jobRequeues}).`
              : `Run ${run.id} resumed from step ${run.resumedStep ?? 0} and is running (${where}).`,
          };
    return (
      deps.move(run.id, ["starting"], { status: "running", startedAt: deps.now() }, { notice }) ??
      runs.get(run.id) ??
      run
    );
  }

  async function fail(run: RunRow, failure: Failure): Promise<void> {
    const logFile = failure.component ? deps.logPath(run.id, failure.component) : deps.jobOutput(run.id);
    const logTail = await readTailLines(logFile, TAIL_LINES);
    const failed = deps.move(
      run.id,
      ["starting", "running"],
      { status: "failed", error: failure.message, failedComponent: failure.component, endedAt: deps.now() },
      {
        notice: {
          kind: "failed",
          component: failure.component,
          exitCode: failure.exitCode,
          signal: failure.signal,
          logTail,
          message: failure.message,
        },
      },
    );
    if (!failed) return;
    log.warn("run failed", { runId: run.id, jobId: run.jobId, component: failure.component, message: failure.message });
    deps.onEnded();
  }

  async function complete(run: RunRow): Promise<void> {
    const { message, reward } = await describeCompletion(deps.stacks.of(run), run);
    const done = deps.move(
      run.id,
      ["running"],
      { status: "completed", endedAt: deps.now() },
      {
        notice: { kind: "completed", message, reward },
      },
    );
    if (!done) return;
    deps.onEnded();
  }

  function lose(run: RunRow, message: string): void {
    const lost = deps.move(
      run.id,
      [run.status],
      { status: "lost", error: message, endedAt: deps.now() },
      { notice: { kind: "lost", message } },
    );
    if (!lost) return;
    deps.onEnded();
  }

  /** The job ended without the bot asking and without the launcher's own outcome: Slurm's state says why. */
  async function endedOutside(run: RunRow, job: SlurmJob | undefined): Promise<void> {
    const id = run.jobId ?? "?";
    if (job?.state === "CANCELLED") {
      const message = `Run ${run.id} was stopped: its Slurm job ${id} was cancelled outside the bot.`;
      const stopped = deps.move(
        run.id,
        ["starting", "running"],
        { status: "stopped", stoppedBy: "Slurm (job cancelled outside the bot)", endedAt: deps.now() },
        { notice: { kind: "stopped", message } },
      );
      if (stopped) deps.onEnded();
      return;
    }
    if (job?.state === "TIMEOUT") {
      const limit = job.fields.TimeLimit ?? "?";
      return fail(run, {
        message: `Slurm job ${id} reached its time limit (${limit}). Raise RL_SLURM_TIME_LIMIT for longer runs.`,
      });
    }
    const how = job ? ` (${job.state}${job.exitCode === undefined ? "" : `, exit code ${job.exitCode}`})` : "";
    return fail(run, {
      message: `Slurm job ${id} ended${how} before its launcher recorded an outcome; see ${deps.jobOutput(run.id)}.`,
      exitCode: job?.exitCode,
    });
  }

  return { markStarted, fail, complete, lose, endedOutside };
}

export type SlurmOutcomes = ReturnType<typeof createSlurmOutcomes>;

// A slurm run's endings, with the same transitions and events as the local backend, so notices work unchanged.
import type { Component } from "../../../db/run-processes.ts";
import type { RunRow, RunsRepo } from "../../../db/runs.ts";
import type { Logger } from "../../log.ts";
import { readTailBytes, readTailLines } from "../../metrics/log-tail.ts";
import { parseTrainerLog } from "../../metrics/trainer-log.ts";
import type { RunEvent } from "../run-events.ts";
import type { SlurmJob } from "./slurm-commands.ts";

export interface SlurmOutcomesDeps {
  runs: RunsRepo;
  log: Logger;
  now: () => number;
  logPath: (runId: string, component: Component) => string;
  /** The job's own output (sbatch --output): the log tail of a failure no component is to blame for. */
  jobOutput: (runId: string) => string;
  emit: (event: RunEvent) => void;
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
    const running = runs.transition(run.id, ["starting"], { status: "running", startedAt: deps.now() });
    if (!running) return runs.get(run.id) ?? run;
    deps.emit({ kind: "started", run: running, message: `Run ${run.id} of ${run.environment} is running (Slurm job ${run.jobId}${node ? ` on ${node}` : ""}).` });
    return running;
  }

  async function fail(run: RunRow, failure: Failure): Promise<void> {
    const failed = runs.transition(run.id, ["starting", "running"], { status: "failed", error: failure.message, failedComponent: failure.component, endedAt: deps.now() });
    if (!failed) return;
    log.warn("run failed", { runId: run.id, jobId: run.jobId, component: failure.component, message: failure.message });
    const logFile = failure.component ? deps.logPath(run.id, failure.component) : deps.jobOutput(run.id);
    const logTail = await readTailLines(logFile, TAIL_LINES);
    deps.emit({ kind: "failed", run: failed, component: failure.component, exitCode: failure.exitCode, signal: failure.signal, logTail, message: failure.message });
    deps.onEnded();
  }

  async function complete(run: RunRow): Promise<void> {
    const done = runs.transition(run.id, ["running"], { status: "completed", endedAt: deps.now() });
    if (!done) return;
    const progress = parseTrainerLog(await readTailBytes(deps.logPath(run.id, "trainer"), 4 * 1024 * 1024));
    const weights = progress.finalWeights ? ` Final weights: ${progress.finalWeights}` : "";
    deps.emit({ kind: "completed", run: done, message: `Training complete after ${progress.step ?? "?"} steps; reward mean ${progress.rewardMean ?? "?"}.${weights}` });
    deps.onEnded();
  }

  function lose(run: RunRow, message: string): void {
    const lost = runs.transition(run.id, [run.status], { status: "lost", error: message, endedAt: deps.now() });
    if (!lost) return;
    deps.emit({ kind: "lost", run: lost, message });
    deps.onEnded();
  }

  /** The job ended without the bot asking and without the launcher's own outcome: Slurm's state says why. */
  async function endedOutside(run: RunRow, job: SlurmJob | undefined): Promise<void> {
    const id = run.jobId ?? "?";
    if (job?.state === "CANCELLED") {
      const stopped = runs.transition(run.id, ["starting", "running"], { status: "stopped", stoppedBy: "Slurm (job cancelled outside the bot)", endedAt: deps.now() });
      if (stopped) {
        deps.emit({ kind: "stopped", run: stopped, message: `Run ${run.id} was stopped: its Slurm job ${id} was cancelled outside the bot.` });
        deps.onEnded();
      }
      return;
    }
    if (job?.state === "TIMEOUT") {
      const limit = job.fields.TimeLimit ?? "?";
      return fail(run, { message: `Slurm job ${id} reached its time limit (${limit}). Raise RL_SLURM_TIME_LIMIT for longer runs.` });
    }
    const how = job ? ` (${job.state}${job.exitCode === undefined ? "" : `, exit code ${job.exitCode}`})` : "";
    return fail(run, { message: `Slurm job ${id} ended${how} before its launcher recorded an outcome; see ${deps.jobOutput(run.id)}.`, exitCode: job?.exitCode });
  }

  return { markStarted, fail, complete, lose, endedOutside };
}

export type SlurmOutcomes = ReturnType<typeof createSlurmOutcomes>;

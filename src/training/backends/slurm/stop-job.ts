// Ends a run's job when the run is stopping: SIGTERM to the launcher, which stops the run's processes in its stack's order; scancel if it lingers.
import type { RunRow } from "../../../../db/runs.ts";
import type { Config } from "../../../config.ts";
import type { Logger } from "../../../log.ts";
import type { StackRegistry } from "../../../stacks/stack-registry.ts";
import { delay } from "../../wait-until.ts";
import type { FindJobId } from "./find-job-id.ts";
import type { JobWatcher } from "./job-watcher.ts";
import { TERMINAL_STATES, type SlurmCommands } from "./slurm-commands.ts";

export interface JobStopperDeps {
  config: Config;
  log: Logger;
  commands: SlurmCommands;
  /** Runs this process is submitting or stopping: no one else decides about them meanwhile. */
  busy: Set<string>;
  watcher: JobWatcher;
  findJobId: FindJobId;
  stacks: StackRegistry;
}

async function waitForEnd(commands: SlurmCommands, jobId: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await commands.show(jobId).catch(() => undefined);
    if (job === "unknown" || (job && TERMINAL_STATES.has(job.state))) return true;
    if (Date.now() >= deadline) return false;
    await delay(250);
  }
}

export function createJobStopper(deps: JobStopperDeps) {
  const { config, log, commands, busy } = deps;

  /** End the run's job (the run is "stopping"). */
  return async function stop(run: RunRow): Promise<void> {
    busy.add(run.id);
    deps.watcher.unwatch(run.id);
    try {
      const jobId = await deps.findJobId(run);
      if (!jobId) return;
      const job = await commands.show(jobId);
      if (job === "unknown" || TERMINAL_STATES.has(job.state)) return;
      if (job.state !== "PENDING" && (await commands.signalBatch(jobId, "TERM"))) {
        // The launcher gives each component the grace period in turn, so the job may need all of them.
        if (await waitForEnd(commands, jobId, config.stopGraceMs * deps.stacks.of(run).components.length + 5000))
          return;
        log.warn("the Slurm job outlived its stop grace period; cancelling it", { runId: run.id, jobId });
      }
      await commands.cancel(jobId);
      if (!(await waitForEnd(commands, jobId, 60_000)))
        log.warn("the Slurm job is still not over after scancel", { runId: run.id, jobId });
    } finally {
      busy.delete(run.id);
    }
  };
}

export type StopJob = ReturnType<typeof createJobStopper>;

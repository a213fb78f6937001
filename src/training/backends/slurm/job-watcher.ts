// Follows each run's job until the run ends: Slurm announces nothing, so its state is polled every RL_SLURM_POLL_SECONDS.
import type { RunRow, RunsRepo } from "../../../../db/runs.ts";
import type { Config } from "../../../config.ts";
import type { Logger } from "../../../log.ts";
import { delay } from "../../wait-until.ts";
import type { FindJobId } from "./find-job-id.ts";
import type { JobJudge } from "./judge-job.ts";
import type { JobSnapshots } from "./job-snapshots.ts";
import type { SlurmOutcomes } from "./slurm-outcomes.ts";

export interface JobWatcherDeps {
  config: Config;
  runs: RunsRepo;
  log: Logger;
  findJobId: FindJobId;
  snapshots: JobSnapshots;
  decide: JobJudge;
  lose: SlurmOutcomes["lose"];
}

/** The watcher's wait between polls: it never keeps a one-shot command alive, and ends early on abort. */
const pause = (ms: number, signal?: AbortSignal) => delay(ms, signal, { unref: true });

export function createJobWatcher(deps: JobWatcherDeps) {
  const { config, runs, log } = deps;
  const watchers = new Map<string, AbortController>();

  async function pollOnce(runId: string): Promise<boolean> {
    let run: RunRow | undefined = runs.get(runId);
    if (!run || (run.status !== "starting" && run.status !== "running")) return true;
    if (!run.jobId) {
      // Re-attached while Slurm could not be asked whether the job was ever submitted: ask now.
      if (!(await deps.findJobId(run))) {
        deps.lose(run, "The bot restarted while this run was starting, before its Slurm job was submitted.");
        return true;
      }
      run = runs.get(runId)!;
    }
    return deps.decide(runId, await deps.snapshots.observe(run));
  }

  function watch(runId: string): void {
    if (watchers.has(runId)) return;
    const ctl = new AbortController();
    watchers.set(runId, ctl);
    void (async () => {
      try {
        while (!ctl.signal.aborted) {
          const ended = await pollOnce(runId).catch((err: unknown) => {
            // Slurm not answering is not an outcome: keep the run as it is and look again.
            log.warn("could not check the Slurm job", { runId, err });
            return false;
          });
          if (ended || ctl.signal.aborted) break;
          await pause(config.slurm.pollMs, ctl.signal);
        }
      } finally {
        if (watchers.get(runId) === ctl) watchers.delete(runId);
      }
    })();
  }

  function unwatch(runId: string): void {
    watchers.get(runId)?.abort();
    watchers.delete(runId);
  }

  return {
    watch,
    unwatch,
    isWatching: (runId: string) => watchers.has(runId),
    /** Stop following every job (they carry on without the bot). */
    unwatchAll(): void {
      for (const runId of [...watchers.keys()]) unwatch(runId);
    },
  };
}

export type JobWatcher = ReturnType<typeof createJobWatcher>;

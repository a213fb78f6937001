// Brings a slurm run this process does not watch up to date (the bot restarted): re-attach, or settle it from Slurm and the status file.
import type { RunRow, RunsRepo } from "../../../../db/runs.ts";
import type { Logger } from "../../../log.ts";
import { finishStop } from "../../lifecycle/finish-stop.ts";
import type { Transitions } from "../../lifecycle/transitions.ts";
import type { FindJobId } from "./find-job-id.ts";
import type { JobJudge } from "./judge-job.ts";
import type { JobSnapshots } from "./job-snapshots.ts";
import type { JobWatcher } from "./job-watcher.ts";
import type { SlurmOutcomes } from "./slurm-outcomes.ts";
import type { StopJob } from "./stop-job.ts";

export interface JobReconcilerDeps {
  runs: RunsRepo;
  log: Logger;
  now: () => number;
  move: Transitions["move"];
  /** Runs this process is submitting or stopping: no one else decides about them meanwhile. */
  busy: ReadonlySet<string>;
  watcher: JobWatcher;
  findJobId: FindJobId;
  snapshots: JobSnapshots;
  decide: JobJudge;
  stop: StopJob;
  lose: SlurmOutcomes["lose"];
}

export function createJobReconciler(deps: JobReconcilerDeps) {
  const { runs, log, busy, watcher } = deps;

  return async function reconcile(input: RunRow, watchIt: boolean): Promise<RunRow> {
    if (watcher.isWatching(input.id) || busy.has(input.id)) return input;
    try {
      let run = input;
      const jobId = await deps.findJobId(run);
      run = runs.get(run.id) ?? run;
      if (run.status === "stopping") {
        // An earlier bot died while stopping this run: finish the stop.
        if (jobId) await deps.stop(run);
        finishStop(deps.move, run, deps.now());
        return runs.get(run.id)!;
      }
      if (!jobId) {
        deps.lose(run, "The bot restarted while this run was starting, before its Slurm job was submitted.");
        return runs.get(run.id)!;
      }
      const ended = await deps.decide(run.id, await deps.snapshots.observe(run));
      if (!ended && watchIt) {
        watcher.watch(run.id);
        log.info("re-attached to a Slurm job", { runId: run.id, jobId });
      }
    } catch (err) {
      log.warn("could not check the Slurm job", { runId: input.id, err });
      if (watchIt) watcher.watch(input.id);
    }
    return runs.get(input.id) ?? input;
  };
}

export type ReconcileJob = ReturnType<typeof createJobReconciler>;

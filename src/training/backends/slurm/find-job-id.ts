// A run's Slurm job id, found by the job's name when the bot died before saving it (or when it is a sweep's task).
import type { RunRow, RunsRepo } from "../../../../db/runs.ts";
import { jobName } from "./job-spec.ts";
import type { SlurmCommands } from "./slurm-commands.ts";

export interface JobIdFinderDeps {
  runs: RunsRepo;
  commands: SlurmCommands;
}

export function createJobIdFinder(deps: JobIdFinderDeps) {
  const { runs, commands } = deps;
  return async function findJobId(run: RunRow): Promise<string | undefined> {
    if (run.jobId) return run.jobId;
    if (run.sweepId) {
      // A sweep's run is task i of the sweep's job array, named after the sweep.
      const index = runs.listBySweep(run.sweepId).findIndex((r) => r.id === run.id);
      const arrayId = (await commands.findByName(jobName(run.sweepId)))[0]?.replace(/_.*$/, "");
      const found = arrayId && index >= 0 ? `${arrayId}_${index}` : undefined;
      if (found) runs.update(run.id, { jobId: found });
      return found;
    }
    // The bot may have died between sbatch answering and the id being saved: the job's name finds it.
    const found = (await commands.findByName(jobName(run.id)))[0];
    if (found) runs.update(run.id, { jobId: found });
    return found;
  };
}

export type FindJobId = ReturnType<typeof createJobIdFinder>;

// A slurm run's job as /rl status shows it: Slurm's state of the job and each component's state from the status file.
import type { RunRow } from "../../../../db/runs.ts";
import type { StackRegistry } from "../../../stacks/stack-registry.ts";
import type { JobFiles } from "./job-spec.ts";
import type { JobSnapshots } from "./job-snapshots.ts";
import { componentStates, currentStatus, readJobStatus } from "./job-status.ts";
import type { SlurmCommands, SlurmJob } from "./slurm-commands.ts";

/** The job as /rl status shows it. */
export interface SlurmJobView {
  job_id: string;
  state: string;
  reason?: string;
  node?: string;
  exit_code?: number;
}

export interface JobViewDeps {
  commands: SlurmCommands;
  files: (runId: string) => JobFiles;
  snapshots: JobSnapshots;
  stacks: StackRegistry;
}

export function createJobView(deps: JobViewDeps) {
  /** The job's state for /rl status, and each component's state from the launcher's status file. */
  return async function view(run: RunRow): Promise<{ job?: SlurmJobView; processes: Record<string, string> }> {
    const status = currentStatus(await readJobStatus(deps.files(run.id).status), run.jobRequeues);
    let job: SlurmJob | "unknown" | undefined;
    if (run.jobId) job = await deps.commands.show(run.jobId).catch(() => deps.snapshots.latest(run.id)?.job);
    const known = job === "unknown" ? undefined : job;
    const jobView: SlurmJobView | undefined = run.jobId
      ? {
          job_id: run.jobId,
          // Slurm forgets ended jobs after MinJobAge; the launcher's status file still says how it ended.
          state:
            known?.state ??
            (job === "unknown" ? `gone from Slurm${status ? ` (launcher: ${status.state})` : ""}` : "unknown"),
          reason: known?.reason,
          node: known?.node ?? status?.node ?? undefined,
          exit_code: known?.exitCode,
        }
      : undefined;
    return {
      job: jobView,
      processes: componentStates(
        status,
        known?.state === "PENDING" ? known : undefined,
        deps.stacks.of(run).components.map((c) => c.name),
      ),
    };
  };
}

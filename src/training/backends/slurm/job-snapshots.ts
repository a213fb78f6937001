// The latest look at each run's job: Slurm's view of it and the launcher's status file, kept between polls.
import type { RunRow } from "../../../../db/runs.ts";
import type { JobFiles } from "./job-spec.ts";
import { readJobStatus, type JobStatus } from "./job-status.ts";
import type { SlurmCommands, SlurmJob } from "./slurm-commands.ts";

export interface Snapshot {
  job?: SlurmJob | "unknown";
  status?: JobStatus;
  /** When the job was first seen running without a status file (the node may not see the data folder). */
  runningWithoutStatusSince?: number;
  /** When the job was first seen ended without an outcome in its status file (a shared filesystem may lag). */
  endedWithoutOutcomeSince?: number;
}

export interface JobSnapshotsDeps {
  commands: SlurmCommands;
  files: (runId: string) => JobFiles;
}

export function createJobSnapshots(deps: JobSnapshotsDeps) {
  const snapshots = new Map<string, Snapshot>();

  const snapshot = (runId: string) => {
    let s = snapshots.get(runId);
    if (!s) snapshots.set(runId, (s = {}));
    return s;
  };

  return {
    /** Drop what was seen of the run's last job (it is launched again). */
    forget: (runId: string): void => void snapshots.delete(runId),
    /** The last look taken, if any (never asks Slurm). */
    latest: (runId: string): Snapshot | undefined => snapshots.get(runId),
    /** Look again: read the status file, and ask Slurm about the job once it has an id. */
    async observe(run: RunRow): Promise<Snapshot> {
      const snap = snapshot(run.id);
      snap.status = await readJobStatus(deps.files(run.id).status);
      if (run.jobId) snap.job = await deps.commands.show(run.jobId);
      return snap;
    },
  };
}

export type JobSnapshots = ReturnType<typeof createJobSnapshots>;

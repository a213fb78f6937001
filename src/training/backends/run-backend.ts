// What the lifecycle asks of a place runs execute (this machine, or a Slurm cluster): one interface for both.
import type { RunRow } from "../../../db/runs.ts";

export interface RunBackend {
  /** A stop owes stopping the run's processes one by one (local), or the job ends them itself (Slurm). */
  readonly owesStops: boolean;
  /** Start a run that is "starting"; resolves once it is running, failed, or waiting in the backend's queue. */
  launch(run: RunRow, progress?: (text: string) => Promise<void>): Promise<RunRow>;
  /** The run is "stopping" (committed): end what runs of it. */
  stop(run: RunRow): Promise<void>;
  /** A live run this process does not watch (the bot restarted): re-attach, or settle it from what is left. */
  recover(run: RunRow): Promise<void>;
  /** Bot shutdown: runs carry on; stop following them. */
  detachAll(): void;
  /** Runs being started or stopped right now. */
  busyCount(): number;
}

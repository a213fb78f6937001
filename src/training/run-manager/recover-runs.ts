// Recovery at start, as the one process that owns the data folder, and the tasks that belong after it.
import type { RunRow, RunsRepo } from "../../../db/runs.ts";
import type { Logger } from "../../log.ts";
import type { RunBackend } from "../backends/run-backend.ts";
import type { OwedActions } from "../lifecycle/owed-actions.ts";
import { LIVE_STATUSES } from "../lifecycle/transitions.ts";

export interface RecoveryDeps {
  runs: RunsRepo;
  owed: OwedActions;
  backends: Record<RunRow["backend"], RunBackend>;
  startQueued: () => void;
  log: Logger;
}

export function createRecovery(deps: RecoveryDeps) {
  const { runs, log } = deps;
  const afterRecovery: Array<() => Promise<void>> = [];

  return {
    /**
     * Finish every transition left half-done (stop what a terminal run still owes), settle or re-attach live runs,
     * then start what is queued. Owed notices are already in the outbox and go out once a platform is connected.
     */
    async recover(): Promise<void> {
      await deps.owed.carryOutAll();
      for (const run of runs.listByStatus(LIVE_STATUSES)) {
        await deps.backends[run.backend]
          .recover(run)
          .catch((err: unknown) => log.error("recovery failed", { runId: run.id, err }));
      }
      deps.startQueued();
      for (const task of afterRecovery)
        await task().catch((err: unknown) => log.error("a task after recovery failed", { err }));
    },

    /** Work that belongs after recovery (a finished sweep's comparison still owed), in the order added. */
    afterRecovery(task: () => Promise<void>): void {
      afterRecovery.push(task);
    },
  };
}

// Closes approval requests on a timer: an expired one has no event of its own, so its message is edited from here.
import type { ApprovalsRepo } from "../../db/approvals.ts";
import type { Logger } from "../log.ts";

export interface ApprovalExpiryDeps {
  approvals: ApprovalsRepo;
  log: Logger;
  /** Asks the outbox for a pass once edits are queued. */
  kick: () => void;
}

export function createApprovalExpiry(deps: ApprovalExpiryDeps) {
  let timer: NodeJS.Timeout | undefined;
  /** Queues the edits owed now; also catches up on requests that expired (or were decided) while the bot was down. */
  const sweep = (): number => {
    try {
      const queued = deps.approvals.closeFinished();
      if (queued > 0) deps.kick();
      return queued;
    } catch (err) {
      deps.log.error("closing expired approval requests failed", { err });
      return 0;
    }
  };
  return {
    sweep,
    start(intervalMs = 15_000): void {
      timer ??= setInterval(sweep, intervalMs);
      timer.unref();
      sweep();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

export type ApprovalExpiry = ReturnType<typeof createApprovalExpiry>;

// Wiring of approvals: requests waiting for a second person (RL_APPROVE_WHEN), and the timer that closes expired ones.
import { createApprovalsRepo, type ApprovalsRepo } from "../../db/approvals.ts";
import type { Db } from "../../db/open-database.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import type { Config } from "../config.ts";
import type { FeatureSlice } from "../feature-slice.ts";
import type { Logger } from "../log.ts";
import { createApprovalExpiry, type ApprovalExpiry } from "./approval-expiry.ts";
import { closedRequestReply } from "./closed-request.ts";

export interface ApprovalsNeeds {
  db: Db;
  outbox: OutboxRepo;
  log: Logger;
  now: () => number;
  /** Asks delivery for a pass once a closed request's edit is queued. */
  kick: () => void;
}

export function wireApprovals(
  config: Config,
  needs: ApprovalsNeeds,
): FeatureSlice<{ approvals: ApprovalsRepo; approvalExpiry: ApprovalExpiry }> {
  const { db, outbox, log, now, kick } = needs;
  const approvals = createApprovalsRepo(db, {
    now,
    ttlMs: config.approvals.ttlMs,
    outbox,
    closedReply: closedRequestReply,
  });
  const approvalExpiry = createApprovalExpiry({ approvals, log, kick });
  return {
    services: { approvals, approvalExpiry },
    start: () => approvalExpiry.start(),
    stop: async () => approvalExpiry.stop(),
  };
}

// Records where an approval request was posted, so its message can be edited once decided; a failure is logged only.
import type { Reply } from "../src/reply.ts";
import type { Operations } from "../src/operations.ts";

/** The message is already posted, so a failure here must not make a caller post it again: it only stays unedited. */
export function recordApprovalMessage(
  services: Pick<Operations, "approvals" | "log">,
  reply: Reply,
  message: { id: string; thread?: string },
): void {
  const approvalId = reply.delivery?.approvalId;
  if (!approvalId) return;
  try {
    services.approvals.recordMessage(approvalId, message);
  } catch (err) {
    services.log.error("recording the approval request's message failed", { approvalId, message: message.id, err });
  }
}

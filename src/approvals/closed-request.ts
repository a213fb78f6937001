// How an approval request reads once it is closed: who approved or denied it and when, or when it expired.
import type { ApprovalRow } from "../../db/approvals.ts";
import { personRef, type Reply } from "../reply.ts";

/** A moment as shown in approval messages: UTC, to the second. */
export const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");

/** The request, how it ended, and who asked: "Approved by <bob> at …: /rl start, asked by <alice> (request …, rule)." */
export function decisionText(row: ApprovalRow): string {
  const what = `${row.commandText}, asked by ${personRef(row.askerId)} (request ${row.id}, ${row.reason})`;
  if (row.state === "pending") return `Expired at ${isoSeconds(row.expiresAt)} with no decision: ${what}. Nothing ran.`;
  const verb = row.state === "approved" ? "Approved" : "Denied";
  return `${verb} by ${personRef(row.answeredBy ?? "someone")} at ${isoSeconds(row.answeredAt ?? 0)}: ${what}.`;
}

/**
 * The request's message once closed: the same words as asked, how it ended, and its Approve / Deny gone. A request
 * still pending is closed only by its expiry.
 */
export function closedRequestReply(row: ApprovalRow): Reply {
  const outcome = row.state === "approved" ? "Approved" : row.state === "denied" ? "Denied" : "Expired";
  return {
    title: `${outcome}: ${row.commandText}`,
    text: decisionText(row),
    fields: [
      { label: "Request", value: row.id },
      { label: "Rule", value: row.reason },
    ],
    buttons: [],
    data: { approval_id: row.id, state: row.state === "pending" ? "expired" : row.state, answered_by: row.answeredBy },
  };
}

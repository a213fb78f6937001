// Whether a person may approve a request: listed in RL_APPROVERS now, allowed in the channel, and not its asker.
import type { ChannelKey } from "../../db/channel-key.ts";
import { accessOf, matchesEntry, type Policy, type PolicySubject } from "../policy.ts";

export type ApproverVerdict = { ok: true } | { ok: false; why: "asker" | "not-approver" | "channel" };

/**
 * Read from the settings in force, not from the request: an approver taken off RL_APPROVERS (or a channel taken off
 * the allowlist) since the request was made cannot approve it. The asker never can, whatever their role: the terminal's
 * admin role included.
 */
export function mayApprove(
  approvers: readonly string[],
  policy: Policy,
  channel: ChannelKey,
  subject: PolicySubject,
  askerId: string,
): ApproverVerdict {
  if (subject.id === askerId) return { ok: false, why: "asker" };
  if (!matchesEntry(approvers, channel.platform, subject)) return { ok: false, why: "not-approver" };
  if (accessOf(policy, channel, subject).role === "none") return { ok: false, why: "channel" };
  return { ok: true };
}

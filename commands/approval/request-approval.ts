// Holds a confirmed start that RL_APPROVE_WHEN names: records an approval request and answers with its Approve / Deny.
import { isoSeconds } from "../../src/approvals/closed-request.ts";
import { matchApprovalRule } from "../../src/approvals/match-rules.ts";
import { entryNames } from "../../src/policy.ts";
import { personRef, type Reply } from "../../src/reply.ts";
import { readableText } from "../confirmation/button-text.ts";
import { recordAudit } from "../record-audit.ts";
import type { AnyCommand, CommandContext } from "../types.ts";
import { startFacts } from "./start-facts.ts";

/** The commands that start training, and so may need an approver. */
const STARTS = new Set(["start", "sweep", "rerun", "resume"]);

/**
 * The request's message when this start needs an approver, else undefined (the start goes ahead). The message is
 * public, so the approvers see it; the asker's own Approve is refused when it comes.
 */
export async function requestApproval(
  command: AnyCommand,
  rawArgs: Record<string, unknown>,
  parsed: Record<string, unknown>,
  ctx: CommandContext,
): Promise<Reply | undefined> {
  const { when, approvers } = ctx.services.config.approvals;
  if (!STARTS.has(command.name) || when.length === 0 || ctx.approval !== undefined) return undefined;
  const reason = matchApprovalRule(when, await startFacts(command, parsed, ctx));
  if (!reason) return undefined;
  const { user } = ctx;
  const text = readableText(command, parsed);
  const request = ctx.services.approvals.create({
    channel: ctx.channel,
    ...(ctx.thread ? { thread: ctx.thread } : {}),
    askerId: user.id,
    askerName: user.name,
    askerRoles: {
      roles: user.roles,
      roleIds: user.roleIds,
      roleNames: user.roleNames,
      ...(user.remote ? { remote: true } : {}),
      ...(ctx.via === "mcp" ? { via: ctx.via } : {}),
    },
    command: command.name,
    commandText: text,
    args: rawArgs,
    reason,
  });
  recordAudit(ctx, "approval-request", { approval: request.id, command: command.name, text, reason }, "ok");
  const until = isoSeconds(request.expiresAt);
  return {
    title: `Approval needed: ${text}`,
    text:
      `${personRef(user.id)} asked for ${text}; RL_APPROVE_WHEN (${reason}) needs another person's approval. ` +
      `Nothing has started. Approver: anyone in RL_APPROVERS but the asker, until ${until}: click Approve or type /rl approve ${request.id}.`,
    fields: [
      { label: "Request", value: request.id },
      { label: "Rule", value: reason },
      // People named as the platform shows them (never a raw "slack:U…" entry), roles as roles.
      {
        label: "Approvers",
        value:
          entryNames(approvers, ctx.channel.platform).join(", ") ||
          `no one on ${ctx.channel.platform}: RL_APPROVERS lists only other platforms`,
      },
      { label: "Expires", value: until },
    ],
    buttons: [
      { kind: "command", label: "Approve", command: `/rl approve ${request.id}`, style: "primary" },
      { kind: "command", label: "Deny", command: `/rl deny ${request.id}`, style: "danger" },
    ],
    data: {
      approval_id: request.id,
      state: "pending",
      command: text,
      rule: reason,
      asked_by: user.id,
      expires_at: new Date(request.expiresAt).toISOString(),
    },
    // The adapter records where it posted this, so the message can be edited once the request is decided or expires.
    delivery: { approvalId: request.id },
  };
}

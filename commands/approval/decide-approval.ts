// /rl approve <id> and /rl deny <id>: a listed approver other than the asker decides a pending request, once.
import { z } from "zod";
import type { ApprovalRow } from "../../db/approvals.ts";
import { decisionText, isoSeconds } from "../../src/approvals/closed-request.ts";
import { mayApprove } from "../../src/approvals/may-approve.ts";
import { RlError } from "../../src/errors.ts";
import { personRef, type Reply } from "../../src/reply.ts";
import { runCommand } from "../run-command.ts";
import { defineCommand, type AnyCommand, type CommandContext } from "../types.ts";

const args = z.object({ id: z.string().min(1).max(64) });

/** Why a request can no longer be decided: decided before, or its time is up. */
function closedError(row: ApprovalRow): RlError {
  if (row.state !== "pending") {
    const by = row.answeredBy ? personRef(row.answeredBy) : "someone";
    return new RlError("CONFLICT", `Request ${row.id} was already ${row.state} by ${by}; nothing changed.`, {
      details: { approval_id: row.id, state: row.state, answered_by: row.answeredBy },
    });
  }
  return new RlError("CONFLICT", `Request ${row.id} expired at ${isoSeconds(row.expiresAt)}; nothing ran. Ask again.`, {
    details: { approval_id: row.id, state: "expired" },
  });
}

const REFUSALS = {
  asker: "You asked for this start, so you cannot approve or deny it yourself, admin or not: another approver must.",
  "not-approver": "Only the people and roles in RL_APPROVERS may approve or deny a start.",
  channel: "Outside the channels in RL_CHANNEL_ALLOWLIST you may not approve or deny starts.",
} as const;

/** Why this person cannot decide the request now, if they cannot: changes nothing (a surface asks before it shows work). */
function deciderRefusal(id: string, ctx: CommandContext): RlError | undefined {
  const { services } = ctx;
  const row = services.approvals.get(id.trim().toLowerCase());
  const here = row && row.channel.platform === ctx.channel.platform && row.channel.workspace === ctx.channel.workspace;
  if (!row || !here) return new RlError("NOT_FOUND", `No approval request ${id.slice(0, 64)} here.`);
  const subject = { id: ctx.user.id, roles: ctx.user.roles, roleIds: ctx.user.roleIds, roleNames: ctx.user.roleNames };
  const verdict = mayApprove(
    services.config.approvals.approvers,
    services.config.policy,
    row.channel,
    subject,
    row.askerId,
  );
  if (!verdict.ok)
    return new RlError("FORBIDDEN", REFUSALS[verdict.why], { details: { approval_id: row.id, refused: verdict.why } });
  if (row.state !== "pending" || row.expiresAt <= services.now()) return closedError(row);
  return undefined;
}

/** The checks before the compare-and-set: the request exists here, this person may decide it, it is still open. */
function checkDecider(id: string, ctx: CommandContext): ApprovalRow {
  const { services } = ctx;
  const refused = deciderRefusal(id, ctx);
  // A late click need not wait for the expiry timer: the request's message says it expired now.
  if (refused?.code === "CONFLICT") services.approvals.closeFinished();
  if (refused) throw refused;
  return services.approvals.get(id.trim().toLowerCase())!;
}

/** The approved start, run with the arguments the asker gave, as the asker (the run is theirs), in the request's channel. */
async function runApproved(row: ApprovalRow, ctx: CommandContext, commands: readonly AnyCommand[]): Promise<Reply> {
  const { via, ...roles } = row.askerRoles;
  const asker: CommandContext = {
    ...ctx,
    channel: row.channel,
    ...(row.thread ? { thread: row.thread } : { thread: ctx.thread }),
    user: { id: row.askerId, name: row.askerName, ...roles },
    // An agent's start stays its: the run's notices and the audit say so.
    ...(via ? { via } : {}),
    approval: row.id,
  };
  const result = await runCommand({ name: row.command, args: row.args }, asker, true, commands);
  const note = decisionText(row);
  return {
    ...result.reply,
    text: [note, result.reply.text].filter(Boolean).join("\n"),
    data: {
      ...(result.reply.data && typeof result.reply.data === "object" ? result.reply.data : {}),
      approval_id: row.id,
      state: "approved",
      approved_by: row.answeredBy,
      approved_at: isoSeconds(row.answeredAt ?? 0),
    },
  };
}

/** /rl approve or /rl deny, with the registry the approved command is looked up in. */
export function createDecideCommand(decision: "approve" | "deny", registry: () => readonly AnyCommand[]): AnyCommand {
  return defineCommand({
    name: decision,
    summary: decision === "approve" ? "Approve a start someone else asked for" : "Deny a start someone else asked for",
    description:
      decision === "approve"
        ? "Approve a pending approval request by its id (RL_APPROVE_WHEN): the start runs at once as the person who asked. Only a person or role listed in RL_APPROVERS may, never the asker; once."
        : "Deny a pending approval request by its id (RL_APPROVE_WHEN): nothing runs. Only a person or role listed in RL_APPROVERS may, never the asker; once.",
    args,
    positional: ["id"],
    permission: "read",
    uses: ["approvals", "config", "now", "audit", "redact", "log", "env", "manager", "report", "runs", "sweeps"],
    slow: decision === "approve",
    mutates: true,
    examples: [`/rl ${decision} k3x9q2m7ab`],
    refusal: ({ id }, ctx) => deciderRefusal(id, ctx as CommandContext),
    async run({ id }, ctx) {
      const row = checkDecider(id, ctx as CommandContext);
      const won = ctx.services.approvals.decide(row.id, decision === "approve" ? "approved" : "denied", {
        id: ctx.user.id,
        name: ctx.user.name,
      });
      const latest = ctx.services.approvals.get(row.id) ?? row;
      if (!won) throw closedError(latest);
      if (decision === "approve") return runApproved(latest, ctx as CommandContext, registry());
      return {
        title: `Denied: ${latest.commandText}`,
        text: `${decisionText(latest)} Nothing ran.`,
        // The request's own message is edited to say so, for everyone: the decider alone hears it was done.
        ...(latest.message ? { delivery: { ephemeral: true } } : {}),
        data: {
          approval_id: latest.id,
          state: "denied",
          denied_by: latest.answeredBy,
          denied_at: isoSeconds(latest.answeredAt ?? 0),
        },
      };
    },
  });
}

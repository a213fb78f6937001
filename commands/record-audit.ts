// Writes one line of the audit log for a command or an answer, redacted and capped; a failed write is only logged.
import { redactDeep } from "../src/redact.ts";
import type { CommandContext } from "./types.ts";

/** Audit detail is for people reading the log, not a second copy of a huge error. */
const MAX_AUDIT_DETAIL = 1_000;

export function recordAudit(
  ctx: CommandContext,
  command: string,
  args: Record<string, unknown>,
  outcome: "ok" | "refused" | "failed",
  detail?: string,
): void {
  try {
    const { redact } = ctx.services;
    ctx.services.audit.record({
      ...ctx.channel,
      userId: ctx.user.id,
      command,
      args: redactDeep(args, redact),
      outcome,
      detail: detail === undefined ? undefined : redact(detail).slice(0, MAX_AUDIT_DETAIL),
      // Only an agent's surface is kept: every other command came from a person's own hand.
      ...(ctx.via === "mcp" ? { via: ctx.via } : {}),
    });
  } catch (err) {
    ctx.services.log.error("audit write failed", { command, err });
  }
}

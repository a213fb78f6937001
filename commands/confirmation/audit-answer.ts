// The audit line of every answer to a prompt, won or not: "confirm" or "cancel", with the command it was for.
import type { ConfirmationRow } from "../../db/confirmations.ts";
import { recordAudit } from "../record-audit.ts";
import type { CommandContext } from "../types.ts";

export function auditAnswer(
  ctx: CommandContext,
  verb: "confirm" | "cancel",
  id: string,
  record: ConfirmationRow | undefined,
  outcome: "ok" | "refused",
  detail?: string,
): void {
  const args: Record<string, unknown> = {
    confirmation: id.slice(0, 64),
    ...(record ? { command: record.command, text: record.commandText, asked_by: record.askerId } : {}),
  };
  recordAudit(ctx, verb, args, outcome, detail);
}

// Answers a prompt once: only its asker or an admin, only in its channel, only before it expires, one click of many.
import type { ChannelKey } from "../../db/channel-key.ts";
import type { ConfirmationRow } from "../../db/confirmations.ts";
import { asRlError, RlError } from "../../src/errors.ts";
import { crashPoint } from "../../src/process/crash-point.ts";
import { accessOf } from "../../src/policy.ts";
import { checkPermission } from "../check-permission.ts";
import type { AnswerOutcome, ConfirmationAnswerInput, DispatchResult } from "../dispatch-result.ts";
import { errorReply } from "../error-reply.ts";
import { recordAudit } from "../record-audit.ts";
import type { AnyCommand, CommandContext } from "../types.ts";
import { auditAnswer } from "./audit-answer.ts";

/** A Confirm that won its prompt: the stored command is still to run (answer-prompt.ts), as the person who answered. */
export interface WonConfirmation {
  confirmation: ConfirmationRow;
  command: AnyCommand;
}

/** What an answer came to: a won Confirm to run now, or a final result (cancelled, or nothing changed and why). */
export type Answered = { kind: "won"; won: WonConfirmation } | { kind: "done"; result: DispatchResult };

const sameChannel = (a: ChannelKey, b: ChannelKey): boolean =>
  a.platform === b.platform && a.workspace === b.workspace && a.channel === b.channel;

/** The person's name as the record has it, else their id. */
export const nameOf = (id: string, name: string | undefined): string => name || id;

/** Why a prompt cannot be answered any more: someone answered it, or its time is up. */
function closed(record: ConfirmationRow): { outcome: "answered" | "expired"; err: RlError } {
  if (record.state !== "pending") {
    const by = nameOf(record.answeredBy ?? "someone", record.answeredByName);
    return {
      outcome: "answered",
      err: new RlError("CONFLICT", `This was already answered (${record.state} by ${by}).`, {
        details: { state: record.state, answered_by: record.answeredBy },
      }),
    };
  }
  return {
    outcome: "expired",
    err: new RlError("CONFLICT", "This prompt expired; run the command again.", {
      details: { state: "expired", expired_at: new Date(record.expiresAt).toISOString() },
    }),
  };
}

/** Nothing changed: said privately, logged and audited as refused. */
function refuse(
  ctx: CommandContext,
  input: { verb: "confirm" | "cancel"; id: string },
  outcome: AnswerOutcome,
  err: RlError,
  row?: ConfirmationRow,
): Answered {
  ctx.services.log.debug("confirmation answer refused", {
    outcome,
    confirmation: row?.id,
    channel: ctx.channel,
    user: ctx.user.id,
  });
  auditAnswer(ctx, input.verb, input.id, row, "refused", err.message);
  return {
    kind: "done",
    result: { reply: errorReply(err), ok: false, answer: { outcome, ...(row ? { confirmation: row } : {}) } },
  };
}

/** The checks before the claim: where, who, still open, still a command, still allowed. */
function check(
  ctx: CommandContext,
  input: { verb: "confirm" | "cancel"; id: string },
  record: ConfirmationRow | undefined,
  commands: readonly AnyCommand[],
): Answered | { record: ConfirmationRow; command: AnyCommand } {
  const { services } = ctx;
  // A prompt is answered where it was asked: an id brought anywhere else is as good as unknown.
  if (!record || !sameChannel(record.channel, ctx.channel)) {
    const unknown = "I do not know this prompt (it may be from an older version of the bot); run the command again.";
    return refuse(ctx, input, "unknown", new RlError("NOT_FOUND", unknown));
  }
  if (record.askerId !== ctx.user.id && accessOf(services.config.policy, ctx.channel, ctx.user).role !== "admin") {
    const who = `Only ${nameOf(record.askerId, record.askerName)} or an admin can answer this prompt.`;
    return refuse(ctx, input, "refused", new RlError("FORBIDDEN", who, { details: { asker: record.askerId } }), record);
  }
  if (record.state !== "pending" || record.expiresAt <= services.now()) {
    const { outcome, err } = closed(record);
    return refuse(ctx, input, outcome, err, record);
  }
  const command = commands.find((c) => c.name === record.command);
  if (!command) {
    const gone = new RlError("NOT_FOUND", `/rl ${record.command} is no longer a command; nothing ran.`);
    return refuse(ctx, input, "unknown", gone, record);
  }
  if (input.verb === "confirm") {
    // Refused by the policy (the asker lost the permission, the channel left the allowlist): the prompt stays open.
    try {
      checkPermission(command, ctx);
    } catch (err) {
      const refusal = asRlError(err);
      recordAudit(ctx, command.name, record.args, "refused", refusal.message);
      return {
        kind: "done",
        result: {
          reply: errorReply(refusal),
          command,
          ok: false,
          answer: { outcome: "refused", confirmation: record },
        },
      };
    }
  }
  return { record, command };
}

/**
 * Answers a prompt by its id as the person in ctx, once (a compare-and-set on the record). Anything but a winning answer
 * changes nothing and says why; a won Cancel closes the prompt; a won Confirm comes back to be run (answer-prompt.ts)
 * once the surface has closed its prompt. Never throws.
 */
export async function answerConfirmation(
  input: ConfirmationAnswerInput,
  ctx: CommandContext,
  commands: readonly AnyCommand[],
): Promise<Answered> {
  try {
    return claimAnswer(input, ctx, commands);
  } catch (err) {
    ctx.services.log.error("answering a confirmation failed", { channel: ctx.channel, user: ctx.user.id, err });
    const failed = new RlError("INTERNAL", "The answer could not be recorded; the error is in the bot's log.");
    return { kind: "done", result: { reply: errorReply(failed), ok: false } };
  }
}

function claimAnswer(input: ConfirmationAnswerInput, ctx: CommandContext, commands: readonly AnyCommand[]): Answered {
  const { services } = ctx;
  if (input.answer !== "confirm" && input.answer !== "cancel") {
    const usage = new RlError("USAGE", 'A prompt is answered with "confirm" or "cancel".');
    return { kind: "done", result: { reply: errorReply(usage), ok: false } };
  }
  const asked = { verb: input.answer, id: typeof input.confirmation === "string" ? input.confirmation : "" };
  const checked = check(ctx, asked, services.confirmations.get(asked.id), commands);
  if ("kind" in checked) return checked;
  const { record, command } = checked;

  const who = { id: ctx.user.id, name: ctx.user.name };
  if (!services.confirmations.claim(record.id, asked.verb === "confirm" ? "confirmed" : "cancelled", who)) {
    // Another click won in between, or the prompt expired just now: say which.
    const latest = services.confirmations.get(record.id) ?? record;
    const { outcome, err } = closed(latest);
    return refuse(ctx, asked, outcome, err, latest);
  }
  const answered = services.confirmations.get(record.id) ?? record;
  auditAnswer(ctx, asked.verb, asked.id, answered, "ok");
  if (asked.verb === "confirm") crashPoint("confirmation-claimed");
  if (asked.verb === "confirm") return { kind: "won", won: { confirmation: answered, command } };
  return {
    kind: "done",
    result: {
      reply: {
        title: "Cancelled",
        text: `Cancelled by ${nameOf(who.id, who.name)}: ${record.commandText}. Nothing ran.`,
        delivery: { ephemeral: true },
        data: { confirmation: record.id, state: "cancelled" },
      },
      command,
      ok: true,
      answer: { outcome: "cancelled", confirmation: answered },
    },
  };
}

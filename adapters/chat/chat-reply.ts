// Words a finished turn as the neutral Reply the person sees: the answer, what ran, and any Confirm/Cancel buttons.
import type { RlError } from "../../src/errors.ts";
import type { Redactor } from "../../src/redact.ts";
import { promptButtons, type PromptButtons } from "../../commands/confirmation/prompt-buttons.ts";
import type { Reply, ReplyButton, ReplyField } from "../../src/reply.ts";
import type { TurnResult } from "./agent-loop.ts";
import type { ToolOutcome } from "./run-tool-call.ts";

/** More prompts than this in one answer is a model gone astray; the person can still type the commands. */
const MAX_CONFIRMATIONS = 5;

/** A model answer longer than this is shown (and remembered) cut, saying how much was left out. */
export const MAX_ANSWER_CHARS = 8_000;

/** The answer within `max` characters; a cut one ends by saying how many characters were not shown. */
export function capAnswer(text: string, max = MAX_ANSWER_CHARS): string {
  if (text.length <= max) return text;
  const note = `\n… (the answer was ${text.length.toLocaleString("en")} characters; ${(text.length - max).toLocaleString("en")} more not shown)`;
  return text.slice(0, max) + note;
}

const ERROR_TITLES: Record<string, string> = {
  RATE_LIMITED: "The language model is busy",
  TIMEOUT: "The language model took too long",
  USAGE: "Message not sent to the model",
  FORBIDDEN: "Not allowed",
};

/**
 * The buttons of every prompt this turn raised (one per distinct command): each prompt's Confirm and its Cancel, both
 * carrying the id of the confirmation the dispatcher recorded for the asking person.
 */
function confirmationParts(outcomes: readonly ToolOutcome[]): Pick<Reply, "title" | "fields" | "buttons"> {
  const prompts = new Map<string, PromptButtons & { prompt: Reply }>();
  for (const o of outcomes) {
    const pair = o.confirmation ? promptButtons(o.confirmation)[0] : undefined;
    if (!o.confirmation || !pair || prompts.has(pair.confirm.command) || prompts.size >= MAX_CONFIRMATIONS) continue;
    prompts.set(pair.confirm.command, { prompt: o.confirmation, ...pair });
  }
  if (prompts.size === 0) return {};
  const entries = [...prompts.entries()];
  const single = entries.length === 1;
  const buttons: ReplyButton[] = entries.flatMap(([command, { confirm, cancel }]) => [
    { ...confirm, label: single ? confirm.label : `Confirm ${command}` },
    ...(cancel ? [{ ...cancel, label: single ? cancel.label : `Cancel ${command}` }] : []),
  ]);
  if (single) {
    const [, { prompt }] = entries[0]!;
    return { title: prompt.title, fields: prompt.fields, buttons };
  }
  const fields: ReplyField[] = entries.map(([command, { prompt }]) => ({
    label: prompt.title ?? command,
    value: prompt.fields?.map((f) => `${f.label}: ${f.value}`).join("; ") || command,
  }));
  return { title: "Please confirm", fields, buttons };
}

function ranSoFar(outcomes: readonly ToolOutcome[]): string {
  if (outcomes.length === 0) return "Nothing ran.";
  const parts = outcomes.map(
    (o) => `${o.name} (${o.confirmation ? "awaiting your confirmation" : o.ok ? "done" : (o.code ?? "failed")})`,
  );
  return `What ran: ${parts.join(", ")}.`;
}

function summary(result: TurnResult): Record<string, unknown> {
  return {
    answer: result.answer,
    iterations: result.iterations,
    tool_calls: result.outcomes.map((o) => ({
      name: o.name,
      ok: o.ok,
      ...(o.code ? { code: o.code } : {}),
      ...(o.confirmation ? { awaiting_confirmation: true } : {}),
    })),
  };
}

/** The text stored as the model's last word when the turn ended without an answer, so the next turn reads coherently. */
export function closingNote(result: TurnResult, maxIterations: number): string | undefined {
  if (result.error) return result.outcomes.length ? `(My answer was interrupted: ${result.error.message})` : undefined;
  if (result.limitReached) return `(I stopped after ${maxIterations} steps without finishing.)`;
  return undefined;
}

/** Said to the person when a limit on tool calls stopped some: how many, and which limit. */
function capNote(result: TurnResult): string {
  const cap = result.toolCap;
  if (!cap) return "";
  const which = cap.kind === "turn" ? `${cap.limit} per message of yours` : `${cap.limit} from one step of the model`;
  return `\n(${cap.skipped} more tool ${cap.skipped === 1 ? "call was" : "calls were"} not run: at most ${which}.)`;
}

export function turnReply(result: TurnResult, maxIterations: number, redact: Redactor): Reply {
  const reply = turnReplyOf(result, maxIterations, redact);
  const note = capNote(result);
  return note ? { ...reply, text: `${reply.text ?? ""}${note}` } : reply;
}

function turnReplyOf(result: TurnResult, maxIterations: number, redact: Redactor): Reply {
  const confirmation = confirmationParts(result.outcomes);
  if (result.error) {
    const tail = result.outcomes.length ? `\n${ranSoFar(result.outcomes)}` : "";
    return {
      ...chatErrorReply(result.error, redact),
      ...confirmation,
      text: redact(`${result.error.message}${tail}`),
      data: summary(result),
    };
  }
  if (result.limitReached) {
    const message = `I stopped after ${maxIterations} steps without finishing (the limit is LLM_MAX_ITERATIONS=${maxIterations}). ${ranSoFar(result.outcomes)} Ask again more specifically, or use /rl commands.`;
    return {
      title: confirmation.title ?? "Stopped before finishing",
      text: redact(message),
      fields: confirmation.fields,
      buttons: confirmation.buttons,
      error: { code: "ITERATION_LIMIT", message: redact(message), details: { max_iterations: maxIterations } },
      data: summary(result),
    };
  }
  return {
    ...confirmation,
    text: redact(capAnswer(result.answer ?? "")),
    data: { ...summary(result), answer: capAnswer(result.answer ?? "") },
  };
}

/**
 * A failure before or instead of an answer: said plainly, without secrets. Not ephemeral by default: after
 * "Thinking…" has been posted, an ephemeral answer would leave that progress message standing in the thread.
 */
export function chatErrorReply(err: RlError, redact: Redactor, ephemeral = false): Reply {
  const message = redact(err.message);
  return {
    title: ERROR_TITLES[err.code] ?? "Chat request failed",
    text: message,
    ...(ephemeral ? { delivery: { ephemeral } } : {}),
    error: {
      code: err.code,
      message,
      ...(Object.keys(err.details).length
        ? { details: JSON.parse(redact(JSON.stringify(err.details))) as Record<string, unknown> }
        : {}),
    },
  };
}

// What goes into the dispatcher and what comes back: a command to run, or an answer to a prompt; the reply and how it went.
import type { ConfirmationRow } from "../db/confirmations.ts";
import type { Reply } from "../src/reply.ts";
import type { AnyCommand } from "./types.ts";

/** An answer to a confirmation prompt, by the id its Confirm and Cancel buttons carry. */
export interface ConfirmationAnswerInput {
  confirmation: string;
  answer: "confirm" | "cancel";
}

/** A command to run: typed text, or a name with its arguments (the command line, the LLM's tools). */
export type RunInput = { text: string } | { name: string; args: Record<string, unknown> };

export type CommandInput = RunInput | ConfirmationAnswerInput;

/**
 * What became of an answer: confirmed (the stored command ran; ok says how it ended), cancelled, or nothing changed
 * because the person may not answer it (refused), it was answered before (answered), it expired, or it is unknown.
 */
export type AnswerOutcome = "confirmed" | "cancelled" | "refused" | "answered" | "expired" | "unknown";

export interface DispatchResult {
  reply: Reply;
  command?: AnyCommand;
  ok: boolean;
  /** The reply is a confirmation prompt; nothing ran yet. */
  needsConfirmation?: boolean;
  /** The answer recorded for an earlier request with the same id (commands/answer-request-once.ts): nothing ran now. */
  replayed?: boolean;
  /** Set for an answer to a confirmation prompt. */
  answer?: { outcome: AnswerOutcome; confirmation?: ConfirmationRow };
}

/** Whether the input answers a prompt rather than naming a command. */
export function isConfirmationAnswer(input: CommandInput): input is ConfirmationAnswerInput {
  return typeof input === "object" && input !== null && "confirmation" in input;
}

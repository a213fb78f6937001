// The one confirmation flow every surface calls (Slack, Discord, the console, exec, an agent): the answer, counted once;
// for a won Confirm, the prompt closed by the surface, then the stored command run as the person who answered. The
// flow decides; the surface closes its own prompt when asked and renders what the flow decided.
import { RlError } from "../../src/errors.ts";
import type { ConfirmationAnswerInput, DispatchResult } from "../dispatch-result.ts";
import { errorReply } from "../error-reply.ts";
import { runCommand } from "../run-command.ts";
import type { AnyCommand, CommandContext } from "../types.ts";
import { answerConfirmation, nameOf, type WonConfirmation } from "./answer-once.ts";

/** What a surface with a prompt of its own does when the flow asks. */
export interface PromptSurface {
  /**
   * Takes the won prompt's buttons away and shows `line` ("Confirmed by …: …") in its place; throws when it cannot, and
   * then the command does not run (nothing runs behind live buttons). May return where the run's work belongs (a
   * thread the surface opened for it).
   */
  closeConfirmed(won: WonConfirmation, line: string): Promise<Pick<CommandContext, "thread"> | void>;
}

/** What the flow decided, for the surface to render. */
export type PromptAnswer =
  /** A won Confirm: the prompt is closed and the stored command ran; its result is the public answer. */
  | { kind: "ran"; won: WonConfirmation; result: DispatchResult }
  /** A won Cancel: the prompt is to show `line` ("Cancelled by …") in place of its buttons. */
  | { kind: "cancelled"; result: DispatchResult; line: string }
  /** A won Confirm whose prompt the surface could not close: nothing ran, and the person hears so. */
  | { kind: "not-closed"; won: WonConfirmation; result: DispatchResult }
  /** Nothing changed (not theirs to answer, answered before, expired, unknown): told to the person alone. */
  | { kind: "unchanged"; result: DispatchResult };

/** The person who answered, as the record names them. */
const answerer = (ctx: CommandContext, recorded: string | undefined): string =>
  nameOf(ctx.user.id, recorded ?? ctx.user.name);

/**
 * The stored command, run with the arguments the asker gave, as the person in ctx (the answerer) through the same
 * checks as any command. ctx may carry where the surface shows the work (a thread, progress).
 */
async function runAsAnswerer(
  won: WonConfirmation,
  ctx: CommandContext,
  commands: readonly AnyCommand[],
): Promise<DispatchResult> {
  const result = await runCommand({ name: won.command.name, args: won.confirmation.args }, ctx, true, commands);
  return { ...result, answer: { outcome: "confirmed", confirmation: won.confirmation } };
}

/** A won Confirm whose prompt the surface could not close: its command does not run, and the person hears so. */
function promptNotClosed(won: WonConfirmation, ctx: CommandContext, err: unknown): DispatchResult {
  const { confirmation, command } = won;
  ctx.services.log.error("closing a confirmed prompt failed; its command did not run", {
    confirmation: confirmation.id,
    command: command.name,
    err,
  });
  const message = `The prompt was answered but could not be closed, so ${confirmation.commandText} did not run. Run the command again.`;
  return {
    reply: errorReply(new RlError("INTERNAL", message)),
    command,
    ok: false,
    answer: { outcome: "confirmed", confirmation },
  };
}

/** A Confirm or Cancel on a prompt, decided once; `surface` closes the prompt of a won Confirm before it runs. */
export async function answerPrompt(
  input: ConfirmationAnswerInput,
  ctx: CommandContext,
  commands: readonly AnyCommand[],
  surface?: PromptSurface,
): Promise<PromptAnswer> {
  const answered = await answerConfirmation(input, ctx, commands);
  if (answered.kind === "done") {
    const { result } = answered;
    const confirmation = result.answer?.confirmation;
    if (result.answer?.outcome !== "cancelled") return { kind: "unchanged", result };
    const what = confirmation?.commandText ?? "";
    const line = `Cancelled by ${answerer(ctx, confirmation?.answeredByName)}${what ? `: ${what}` : ""}`;
    return { kind: "cancelled", result, line };
  }
  const { won } = answered;
  let where: Pick<CommandContext, "thread"> | void = undefined;
  if (surface) {
    const line = `Confirmed by ${answerer(ctx, won.confirmation.answeredByName)}: ${won.confirmation.commandText}`;
    try {
      where = await surface.closeConfirmed(won, line);
    } catch (err) {
      return { kind: "not-closed", won, result: promptNotClosed(won, ctx, err) };
    }
  }
  return { kind: "ran", won, result: await runAsAnswerer(won, where ? { ...ctx, ...where } : ctx, commands) };
}

/** An answer where the surface has no prompt of its own to close first (the console, the command line, tests). */
export async function answerAndRun(
  input: ConfirmationAnswerInput,
  ctx: CommandContext,
  commands: readonly AnyCommand[],
): Promise<DispatchResult> {
  return (await answerPrompt(input, ctx, commands)).result;
}

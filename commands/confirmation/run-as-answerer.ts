// Runs a won Confirm's stored command, exactly as recorded, as the person who answered: their permission, their audit.
import { RlError } from "../../src/errors.ts";
import type { DispatchResult } from "../dispatch-result.ts";
import { errorReply } from "../error-reply.ts";
import { runCommand } from "../run-command.ts";
import type { AnyCommand, CommandContext } from "../types.ts";
import { answerConfirmation, type WonConfirmation } from "./answer-once.ts";
import type { ConfirmationAnswerInput } from "../dispatch-result.ts";

/**
 * The stored command, run with the arguments the asker gave, as the person in ctx (the answerer) through the same
 * checks as any command. ctx may carry where the surface shows the work (a thread, progress).
 */
export async function runAsAnswerer(
  won: WonConfirmation,
  ctx: CommandContext,
  commands: readonly AnyCommand[],
): Promise<DispatchResult> {
  const result = await runCommand({ name: won.command.name, args: won.confirmation.args }, ctx, true, commands);
  return { ...result, answer: { outcome: "confirmed", confirmation: won.confirmation } };
}

/** A won Confirm whose prompt the surface could not close: its command does not run, and the person hears so. */
export function promptNotClosed(won: WonConfirmation, ctx: CommandContext, err: unknown): DispatchResult {
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

/** An answer where the surface has no prompt of its own to close first (the console, the command line, tests). */
export async function answerAndRun(
  input: ConfirmationAnswerInput,
  ctx: CommandContext,
  commands: readonly AnyCommand[],
): Promise<DispatchResult> {
  const answered = await answerConfirmation(input, ctx, commands);
  return answered.kind === "won" ? runAsAnswerer(answered.won, ctx, commands) : answered.result;
}

// The one way in: a command to run (parse, authorise, validate, confirm, run, audit) or an answer to a prompt. Never
// throws at an adapter: failures become replies.
import { answerRequestOnce } from "./answer-request-once.ts";
import { answerAndRun } from "./confirmation/answer-prompt.ts";
import { isConfirmationAnswer, type CommandInput, type DispatchResult } from "./dispatch-result.ts";
import { COMMANDS } from "./index.ts";
import { runCommand } from "./run-command.ts";
import type { AnyCommand, CommandContext } from "./types.ts";

export type {
  AnswerOutcome,
  CommandInput,
  ConfirmationAnswerInput,
  DispatchResult,
  RunInput,
} from "./dispatch-result.ts";
export { errorReply } from "./error-reply.ts";

export interface DispatchOptions {
  /**
   * Run a confirm command without a prompt. Only for trusted local callers (the command line's exec, piped console
   * input); ignored anywhere else: on Slack, Discord and in chat mode a prompt is answered through its stored record.
   */
  confirmed?: boolean;
  commands?: readonly AnyCommand[];
  /**
   * The client's id for this request (exec, MCP): a command that changes something runs once for it, and a retry
   * with the same id hears the first answer (commands/answer-request-once.ts).
   */
  requestId?: string;
}

/** Whoever types here runs the bot on its own machine (the policy makes them admin too). */
const LOCAL_PLATFORMS = new Set(["console", "cli"]);

function isTrustedLocal(ctx: CommandContext): boolean {
  return LOCAL_PLATFORMS.has(ctx.channel.platform) && (ctx.via === "cli" || ctx.via === "console");
}

/**
 * A command, or an answer to a prompt (commands/confirmation/): a won Confirm runs the stored command at once. Surfaces
 * that close their prompt before the command runs answer through the confirmation module themselves.
 */
export async function dispatch(
  input: CommandInput,
  ctx: CommandContext,
  options: DispatchOptions = {},
): Promise<DispatchResult> {
  const commands = options.commands ?? COMMANDS;
  // Not redacted here: each place a reply leaves the bot redacts it once, where it is sent (the Slack, Discord and
  // console adapters as they render, the LLM's tool results, the command line's output).
  if (isConfirmationAnswer(input)) return answerAndRun(input, ctx, commands);
  const run = () => runCommand(input, ctx, options.confirmed === true && isTrustedLocal(ctx), commands);
  return options.requestId === undefined ? run() : answerRequestOnce(options.requestId, input, ctx, commands, run);
}

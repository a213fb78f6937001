// Runs one command for a person: parse, authorise, validate, ask to confirm or run, audit. Failures become replies.
import type { z } from "zod";
import { asRlError, RlError } from "../src/errors.ts";
import type { Reply } from "../src/reply.ts";
import { checkInputSize } from "../src/values/check-input-size.ts";
import { usageOf } from "./arg-specs.ts";
import { checkPermission } from "./check-permission.ts";
import { requestApproval } from "./approval/request-approval.ts";
import { askConfirmation } from "./confirmation/ask.ts";
import type { DispatchResult, RunInput } from "./dispatch-result.ts";
import { errorReply } from "./error-reply.ts";
import { parseCommandText } from "./parse-command-text.ts";
import { recordAudit } from "./record-audit.ts";
import { contextFor, isPersonalWith, type AnyCommand, type CommandContext } from "./types.ts";

/** The command an input names, and its arguments as given (not yet validated). */
export function resolveCommand(
  input: RunInput,
  commands: readonly AnyCommand[],
): { command: AnyCommand; args: Record<string, unknown> } {
  if ("text" in input) {
    if (typeof input.text !== "string") throw new RlError("USAGE", "The command must be text, e.g. /rl help.");
    return parseCommandText(input.text, commands);
  }
  const name = typeof input.name === "string" ? input.name : "";
  const command = commands.find((c) => c.name === name || c.toolName === name);
  if (!command) throw new RlError("USAGE", `Unknown command "${name.slice(0, 100)}". Try /rl help.`);
  return { command, args: checkInputSize(input.args) };
}

/** One zod issue in words a person can act on; zod's own message when there is nothing better to say. */
function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "arguments: invalid.";
  const where = issue.path.join(".") || "arguments";
  if (issue.code === "too_big" && issue.origin === "string")
    return `${where} is too long: at most ${issue.maximum} characters.`;
  if (issue.code === "too_big" && issue.origin === "array")
    return `${where} has too many items: at most ${issue.maximum}.`;
  if (issue.code === "too_small" && issue.origin === "string" && issue.minimum === 1)
    return `${where} must not be empty.`;
  return `${where}: ${issue.message}.`;
}

/** Refusals, as opposed to failures: the policy said no, or a locked field was asked for. */
export function isRefusal(err: RlError): boolean {
  return err.code === "FORBIDDEN" || err.code === "LOCKED_FIELD" || err.code === "OVER_BUDGET";
}

/** Typed or clicked on a chat platform, a personal read is shown to the asker alone, with a "Post to channel" button. */
function answerPrivately(command: AnyCommand, args: Record<string, unknown>, ctx: CommandContext, reply: Reply): Reply {
  if (!isPersonalWith(command, args) || (ctx.via !== "slash" && ctx.via !== "button")) return reply;
  return { ...reply, delivery: { ...reply.delivery, ephemeral: true, shareable: true } };
}

/**
 * Runs the command the input names as the person in ctx. A confirm command answers with its prompt unless
 * `confirmed` (a trusted local caller, or a won Confirm running the stored command).
 */
export async function runCommand(
  input: RunInput,
  ctx: CommandContext,
  confirmed: boolean,
  commands: readonly AnyCommand[],
): Promise<DispatchResult> {
  const { services } = ctx;
  let command: AnyCommand | undefined;
  let args: Record<string, unknown> = {};
  try {
    ({ command, args } = resolveCommand(input, commands));
    checkPermission(command, ctx);
    const parsed = command.args.safeParse(args);
    if (!parsed.success) {
      throw new RlError("USAGE", `${describeIssue(parsed.error.issues[0])}\nUsage: ${usageOf(command)}`, {
        details: { usage: usageOf(command) },
      });
    }
    if (command.confirm && !confirmed) {
      return {
        reply: await askConfirmation(command, args, parsed.data as Record<string, unknown>, ctx),
        command,
        ok: true,
        needsConfirmation: true,
      };
    }
    const held = await requestApproval(command, args, parsed.data as Record<string, unknown>, ctx);
    if (held) return { reply: held, command, ok: true };
    const reply = await answerPrivately(
      command,
      parsed.data as Record<string, unknown>,
      ctx,
      await command.run(parsed.data as Record<string, unknown>, contextFor(command, ctx)),
    );
    // A command can finish and still report a failure (a start whose run failed): that is not ok for the caller.
    if (command.mutates) recordAudit(ctx, command.name, args, reply.error ? "failed" : "ok", reply.error?.message);
    return { reply, command, ok: reply.error === undefined };
  } catch (thrown) {
    const err = asRlError(thrown);
    if (err.code === "INTERNAL")
      services.log.error("command failed", {
        command: command?.name,
        channel: ctx.channel,
        user: ctx.user.id,
        err: thrown,
      });
    else
      services.log.debug("command refused", {
        command: command?.name,
        code: err.code,
        channel: ctx.channel,
        user: ctx.user.id,
      });
    if (command && (command.mutates || isRefusal(err)))
      recordAudit(ctx, command.name, args, isRefusal(err) ? "refused" : "failed", err.message);
    return { reply: errorReply(err), command, ok: false };
  }
}

// The one way in: parse, authorise, validate, confirm, run, audit. Never throws at an adapter: failures become replies.
import type { z } from "zod";
import { asRlError, RlError } from "../src/errors.ts";
import { accessOf, allows, refusalMessage } from "../src/policy.ts";
import { redactDeep } from "../src/redact.ts";
import type { Reply } from "../src/reply.ts";
import { checkInputSize } from "../src/values/check-input-size.ts";
import { usageOf } from "./arg-specs.ts";
import { COMMANDS } from "./index.ts";
import { parseCommandText } from "./parse-command-text.ts";
import type { AnyCommand, CommandContext } from "./types.ts";

export type CommandInput = { text: string } | { name: string; args: Record<string, unknown> };

export interface DispatchResult {
  reply: Reply;
  command?: AnyCommand;
  ok: boolean;
  /** The reply is a confirmation prompt; nothing ran yet. */
  needsConfirmation?: boolean;
}

/** Audit detail is for people reading the log, not a second copy of a huge error. */
const MAX_AUDIT_DETAIL = 1_000;

/** The error reply a person sees: what went wrong and what to do; details for JSON and the LLM. */
export function errorReply(err: RlError): Reply {
  const title = err.code === "USAGE" ? "Usage" : err.code === "FORBIDDEN" ? "Not allowed" : "Could not do that";
  return {
    title,
    text: err.message,
    ephemeral: true,
    error: { code: err.code, message: err.message, ...(Object.keys(err.details).length ? { details: err.details } : {}) },
  };
}

function resolve(input: CommandInput, commands: readonly AnyCommand[]): { command: AnyCommand; args: Record<string, unknown> } {
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
  if (issue.code === "too_big" && issue.origin === "string") return `${where} is too long: at most ${issue.maximum} characters.`;
  if (issue.code === "too_big" && issue.origin === "array") return `${where} has too many items: at most ${issue.maximum}.`;
  if (issue.code === "too_small" && issue.origin === "string" && issue.minimum === 1) return `${where} must not be empty.`;
  return `${where}: ${issue.message}.`;
}

export interface DispatchOptions {
  /** The person already confirmed (a Confirm button, a console "yes", or the command line). */
  confirmed?: boolean;
  commands?: readonly AnyCommand[];
}

/** One word of a button's command text, quoted so that parseCommandText reads back exactly this value, never more words or flags. */
function quoteWord(value: string): string {
  if (!value.includes('"')) return `"${value}"`;
  if (!value.includes("'")) return `'${value}'`;
  throw new RlError("USAGE", "A value holding both \" and ' cannot go on a button; type the command instead.");
}

/** The text a Confirm button re-runs: the command with its arguments, each its own quoted word. */
export function commandText(command: AnyCommand, args: Record<string, unknown>): string {
  const positional = command.positional ?? [];
  const words: string[] = [];
  for (const name of positional) if (args[name] !== undefined) words.push(quoteWord(String(args[name])));
  const flags: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (positional.includes(name) || value === undefined) continue;
    if (value === true) flags.push(`--${name}`);
    else if (Array.isArray(value)) {
      const items = value.map(String);
      if (items.some((item) => item.includes(","))) throw new RlError("USAGE", `--${name} has an item with a comma, which cannot go on a button; type the command instead.`);
      flags.push(`--${name}`, quoteWord(items.join(",")));
    } else flags.push(`--${name}`, quoteWord(String(value)));
  }
  // The last positional of a rest-of-line command takes everything after it, so flags go first there.
  return ["/rl " + command.name, ...(command.restOfLine ? [...flags, ...words] : [...words, ...flags])].join(" ");
}

async function confirmation(command: AnyCommand, args: Record<string, unknown>, ctx: CommandContext): Promise<Reply> {
  const preview = command.preview ? await command.preview(args, ctx) : { title: `Run /rl ${command.name}?` };
  return {
    ...preview,
    ephemeral: true,
    buttons: [
      { label: "Confirm", command: commandText(command, args), style: command.name === "stop" ? "danger" : "primary", confirmed: true },
      { label: "Cancel", command: "", action: "cancel" },
    ],
  };
}

/** Refusals, as opposed to failures: the policy said no, or a locked field was asked for. */
function isRefusal(err: RlError): boolean {
  return err.code === "FORBIDDEN" || err.code === "LOCKED_FIELD";
}

async function attempt(input: CommandInput, ctx: CommandContext, options: DispatchOptions, commands: readonly AnyCommand[]): Promise<DispatchResult> {
  const { services } = ctx;
  let command: AnyCommand | undefined;
  let args: Record<string, unknown> = {};
  try {
    ({ command, args } = resolve(input, commands));
    const { policy } = services.config;
    const access = accessOf(policy, ctx.channel, ctx.user);
    if (!allows(access.role, command.permission)) {
      throw new RlError("FORBIDDEN", refusalMessage(policy, access, `/rl ${command.name}`, command.permission), {
        details: { needed: command.permission, role: access.role, ...(access.reason === "channel" ? { reason: "channel_not_allowed" } : {}) },
      });
    }
    const parsed = command.args.safeParse(args);
    if (!parsed.success) {
      throw new RlError("USAGE", `${describeIssue(parsed.error.issues[0])}\nUsage: ${usageOf(command)}`, { details: { usage: usageOf(command) } });
    }
    if (command.confirm && !options.confirmed) {
      return { reply: await confirmation(command, parsed.data as Record<string, unknown>, ctx), command, ok: true, needsConfirmation: true };
    }
    const reply = await command.run(parsed.data as Record<string, unknown>, ctx);
    // A command can finish and still report a failure (a start whose run failed): that is not ok for the caller.
    if (command.mutates) audit(ctx, command.name, args, reply.error ? "failed" : "ok", reply.error?.message);
    return { reply, command, ok: reply.error === undefined };
  } catch (thrown) {
    const err = asRlError(thrown);
    if (err.code === "INTERNAL") services.log.error("command failed", { command: command?.name, channel: ctx.channel, user: ctx.user.id, err: thrown });
    else services.log.debug("command refused", { command: command?.name, code: err.code, channel: ctx.channel, user: ctx.user.id });
    if (command && (command.mutates || isRefusal(err))) audit(ctx, command.name, args, isRefusal(err) ? "refused" : "failed", err.message);
    return { reply: errorReply(err), command, ok: false };
  }
}

export async function dispatch(input: CommandInput, ctx: CommandContext, options: DispatchOptions = {}): Promise<DispatchResult> {
  const result = await attempt(input, ctx, options, options.commands ?? COMMANDS);
  try {
    // Every reply leaves without the bot's secrets, whichever renderer, JSON printer or LLM reads it next.
    return { ...result, reply: redactDeep(result.reply, ctx.services.redact) };
  } catch (err) {
    ctx.services.log.error("reply redaction failed", { command: result.command?.name, err });
    return { reply: errorReply(new RlError("INTERNAL", "The answer could not be prepared; the error is in the bot's log.")), command: result.command, ok: false };
  }
}

function audit(ctx: CommandContext, command: string, args: Record<string, unknown>, outcome: "ok" | "refused" | "failed", detail?: string): void {
  try {
    const { redact } = ctx.services;
    ctx.services.audit.record({
      ...ctx.channel,
      userId: ctx.user.id,
      command,
      args: redactDeep(args, redact),
      outcome,
      detail: detail === undefined ? undefined : redact(detail).slice(0, MAX_AUDIT_DETAIL),
    });
  } catch (err) {
    ctx.services.log.error("audit write failed", { command, err });
  }
}

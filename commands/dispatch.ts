// The one way in: parse, authorise, validate, confirm, run, audit. Never throws at an adapter: failures become replies.
import type { z } from "zod";
import type { ChannelKey } from "../db/channel-key.ts";
import type { ConfirmationRow } from "../db/confirmations.ts";
import { asRlError, RlError } from "../src/errors.ts";
import { accessOf, allows, refusalMessage } from "../src/policy.ts";
import { redactDeep } from "../src/redact.ts";
import type { Reply } from "../src/reply.ts";
import { checkInputSize } from "../src/values/check-input-size.ts";
import { usageOf } from "./arg-specs.ts";
import { COMMANDS } from "./index.ts";
import { parseCommandText } from "./parse-command-text.ts";
import { contextFor, type AnyCommand, type CommandContext } from "./types.ts";

/** An answer to a confirmation prompt, by the id its Confirm and Cancel buttons carry. */
export interface ConfirmationAnswerInput {
  confirmation: string;
  answer: "confirm" | "cancel";
}

export type CommandInput = { text: string } | { name: string; args: Record<string, unknown> } | ConfirmationAnswerInput;

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
  /** Set for an answer to a confirmation prompt. */
  answer?: { outcome: AnswerOutcome; confirmation?: ConfirmationRow };
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
    error: {
      code: err.code,
      message: err.message,
      ...(Object.keys(err.details).length ? { details: err.details } : {}),
    },
  };
}

type RunInput = Exclude<CommandInput, ConfirmationAnswerInput>;

function resolve(
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

export interface DispatchOptions {
  /**
   * Run a confirm command without a prompt. Only for trusted local callers (the command line's exec, piped console
   * input); ignored anywhere else: on Slack, Discord and in chat mode a prompt is answered through its stored record.
   */
  confirmed?: boolean;
  commands?: readonly AnyCommand[];
  /**
   * Called once a Confirm answer has won its prompt, before the stored command runs: adapters close the prompt here.
   * What it returns (a thread, a progress reporter) joins the context the command runs in.
   */
  onConfirmed?: (confirmation: ConfirmationRow) => Promise<Partial<Pick<CommandContext, "thread" | "progress">> | void>;
}

/** Whoever types here runs the bot on its own machine (the policy makes them admin too). */
const LOCAL_PLATFORMS = new Set(["console", "cli"]);

function isTrustedLocal(ctx: CommandContext): boolean {
  return LOCAL_PLATFORMS.has(ctx.channel.platform) && (ctx.via === "cli" || ctx.via === "console");
}

/** One word of a button's command text, quoted so that parseCommandText reads back exactly this value, never more words or flags. */
function quoteWord(value: string): string {
  if (!value.includes('"')) return `"${value}"`;
  if (!value.includes("'")) return `'${value}'`;
  throw new RlError("USAGE", "A value holding both \" and ' cannot go on a button; type the command instead.");
}

/** The command with its arguments, each its own quoted word: what a person could type to run it again. */
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
      if (items.some((item) => item.includes(",")))
        throw new RlError(
          "USAGE",
          `--${name} has an item with a comma, which cannot go on a button; type the command instead.`,
        );
      flags.push(`--${name}`, quoteWord(items.join(",")));
    } else flags.push(`--${name}`, quoteWord(String(value)));
  }
  // The last positional of a rest-of-line command takes everything after it, so flags go first there.
  return ["/rl " + command.name, ...(command.restOfLine ? [...flags, ...words] : [...words, ...flags])].join(" ");
}

/** The command as a person reads it: commandText when it can be written that way, else the arguments as JSON. */
function readableText(command: AnyCommand, args: Record<string, unknown>): string {
  try {
    return commandText(command, args);
  } catch {
    return `/rl ${command.name} ${JSON.stringify(args)}`;
  }
}

/**
 * The prompt: a preview, and Confirm / Cancel buttons carrying the id of a confirmation recorded for the asker.
 * The record keeps the arguments as they were given, so Confirm runs exactly those, once.
 */
async function confirmation(
  command: AnyCommand,
  rawArgs: Record<string, unknown>,
  parsed: Record<string, unknown>,
  ctx: CommandContext,
): Promise<Reply> {
  const preview = command.preview
    ? await command.preview(parsed, contextFor(command, ctx))
    : { title: `Run /rl ${command.name}?` };
  const text = readableText(command, parsed);
  const record = ctx.services.confirmations.create({
    channel: ctx.channel,
    askerId: ctx.user.id,
    askerName: ctx.user.name,
    command: command.name,
    commandText: text,
    args: rawArgs,
  });
  return {
    ...preview,
    ephemeral: true,
    buttons: [
      {
        label: "Confirm",
        command: text,
        style: command.name === "stop" ? "danger" : "primary",
        action: "confirm",
        confirmation: record.id,
      },
      { label: "Cancel", command: "", action: "cancel", confirmation: record.id },
    ],
  };
}

/** Refusals, as opposed to failures: the policy said no, or a locked field was asked for. */
function isRefusal(err: RlError): boolean {
  return err.code === "FORBIDDEN" || err.code === "LOCKED_FIELD";
}

/** Throws FORBIDDEN unless the person's role here allows the command. */
function checkPermission(command: AnyCommand, ctx: CommandContext): void {
  const { policy } = ctx.services.config;
  const access = accessOf(policy, ctx.channel, ctx.user);
  if (!allows(access.role, command.permission)) {
    throw new RlError("FORBIDDEN", refusalMessage(policy, access, `/rl ${command.name}`, command.permission), {
      details: {
        needed: command.permission,
        role: access.role,
        ...(access.reason === "channel" ? { reason: "channel_not_allowed" } : {}),
      },
    });
  }
}

async function attempt(
  input: RunInput,
  ctx: CommandContext,
  confirmed: boolean,
  commands: readonly AnyCommand[],
): Promise<DispatchResult> {
  const { services } = ctx;
  let command: AnyCommand | undefined;
  let args: Record<string, unknown> = {};
  try {
    ({ command, args } = resolve(input, commands));
    checkPermission(command, ctx);
    const parsed = command.args.safeParse(args);
    if (!parsed.success) {
      throw new RlError("USAGE", `${describeIssue(parsed.error.issues[0])}\nUsage: ${usageOf(command)}`, {
        details: { usage: usageOf(command) },
      });
    }
    if (command.confirm && !confirmed) {
      return {
        reply: await confirmation(command, args, parsed.data as Record<string, unknown>, ctx),
        command,
        ok: true,
        needsConfirmation: true,
      };
    }
    const reply = await command.run(parsed.data as Record<string, unknown>, contextFor(command, ctx));
    // A command can finish and still report a failure (a start whose run failed): that is not ok for the caller.
    if (command.mutates) audit(ctx, command.name, args, reply.error ? "failed" : "ok", reply.error?.message);
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
      audit(ctx, command.name, args, isRefusal(err) ? "refused" : "failed", err.message);
    return { reply: errorReply(err), command, ok: false };
  }
}

const sameChannel = (a: ChannelKey, b: ChannelKey): boolean =>
  a.platform === b.platform && a.workspace === b.workspace && a.channel === b.channel;
const nameOf = (id: string, name: string | undefined): string => name || id;

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

/**
 * Answers a prompt by its id: only its asker or an admin, only once (a compare-and-set on the record), only before it
 * expires. Anything else changes nothing and says why. A won Confirm runs the stored command as the clicker, through
 * the same permission check as any command.
 */
async function answerConfirmation(
  input: ConfirmationAnswerInput,
  ctx: CommandContext,
  options: DispatchOptions,
  commands: readonly AnyCommand[],
): Promise<DispatchResult> {
  const { services } = ctx;
  if (input.answer !== "confirm" && input.answer !== "cancel") {
    return { reply: errorReply(new RlError("USAGE", 'A prompt is answered with "confirm" or "cancel".')), ok: false };
  }
  const verb = input.answer;
  const id = typeof input.confirmation === "string" ? input.confirmation : "";
  const record = services.confirmations.get(id);
  const refuse = (outcome: AnswerOutcome, err: RlError, row?: ConfirmationRow): DispatchResult => {
    services.log.debug("confirmation answer refused", {
      outcome,
      confirmation: row?.id,
      channel: ctx.channel,
      user: ctx.user.id,
    });
    auditAnswer(ctx, verb, id, row, "refused", err.message);
    return { reply: errorReply(err), ok: false, answer: { outcome, ...(row ? { confirmation: row } : {}) } };
  };

  // A prompt is answered where it was asked: an id brought anywhere else is as good as unknown.
  if (!record || !sameChannel(record.channel, ctx.channel)) {
    return refuse(
      "unknown",
      new RlError(
        "NOT_FOUND",
        "I do not know this prompt (it may be from an older version of the bot); run the command again.",
      ),
    );
  }
  if (record.askerId !== ctx.user.id && accessOf(services.config.policy, ctx.channel, ctx.user).role !== "admin") {
    return refuse(
      "refused",
      new RlError("FORBIDDEN", `Only ${nameOf(record.askerId, record.askerName)} or an admin can answer this prompt.`, {
        details: { asker: record.askerId },
      }),
      record,
    );
  }
  if (record.state !== "pending" || record.expiresAt <= services.now()) {
    const { outcome, err } = closed(record);
    return refuse(outcome, err, record);
  }
  const command = commands.find((c) => c.name === record.command);
  if (!command)
    return refuse(
      "unknown",
      new RlError("NOT_FOUND", `/rl ${record.command} is no longer a command; nothing ran.`),
      record,
    );
  if (verb === "confirm") {
    // Refused by the policy (the asker lost the permission, the channel left the allowlist): the prompt stays open.
    try {
      checkPermission(command, ctx);
    } catch (err) {
      const refusal = asRlError(err);
      audit(ctx, command.name, record.args, "refused", refusal.message);
      return { reply: errorReply(refusal), command, ok: false, answer: { outcome: "refused", confirmation: record } };
    }
  }

  const who = { id: ctx.user.id, name: ctx.user.name };
  if (!services.confirmations.claim(record.id, verb === "confirm" ? "confirmed" : "cancelled", who)) {
    // Another click won in between, or the prompt expired just now: say which.
    const latest = services.confirmations.get(record.id) ?? record;
    const { outcome, err } = closed(latest);
    return refuse(outcome, err, latest);
  }
  const answered = services.confirmations.get(record.id) ?? record;
  auditAnswer(ctx, verb, id, answered, "ok");

  if (verb === "cancel") {
    return {
      reply: {
        title: "Cancelled",
        text: `Cancelled by ${nameOf(who.id, who.name)}: ${record.commandText}. Nothing ran.`,
        ephemeral: true,
        data: { confirmation: record.id, state: "cancelled" },
      },
      command,
      ok: true,
      answer: { outcome: "cancelled", confirmation: answered },
    };
  }
  let extra: Partial<Pick<CommandContext, "thread" | "progress">> | void;
  try {
    extra = await options.onConfirmed?.(answered);
  } catch (err) {
    services.log.error("closing a confirmed prompt failed; its command did not run", {
      confirmation: record.id,
      command: command.name,
      err,
    });
    return {
      reply: errorReply(
        new RlError(
          "INTERNAL",
          `The prompt was answered but could not be closed, so ${record.commandText} did not run. Run the command again.`,
        ),
      ),
      command,
      ok: false,
      answer: { outcome: "confirmed", confirmation: answered },
    };
  }
  const result = await attempt({ name: command.name, args: record.args }, { ...ctx, ...(extra ?? {}) }, true, commands);
  return { ...result, answer: { outcome: "confirmed", confirmation: answered } };
}

export async function dispatch(
  input: CommandInput,
  ctx: CommandContext,
  options: DispatchOptions = {},
): Promise<DispatchResult> {
  const commands = options.commands ?? COMMANDS;
  let result: DispatchResult;
  if (typeof input === "object" && input !== null && "confirmation" in input) {
    try {
      result = await answerConfirmation(input, ctx, options, commands);
    } catch (err) {
      ctx.services.log.error("answering a confirmation failed", { channel: ctx.channel, user: ctx.user.id, err });
      result = {
        reply: errorReply(new RlError("INTERNAL", "The answer could not be recorded; the error is in the bot's log.")),
        ok: false,
      };
    }
  } else {
    result = await attempt(input, ctx, options.confirmed === true && isTrustedLocal(ctx), commands);
  }
  // Not redacted here: each place a reply leaves the bot redacts it once, where it is sent (the Slack, Discord and
  // console adapters as they render, the LLM's tool results, the command line's output).
  return result;
}

/** Every answer to a prompt, won or not, as "confirm" or "cancel", with the command it was for. */
function auditAnswer(
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
  audit(ctx, verb, args, outcome, detail);
}

function audit(
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
    });
  } catch (err) {
    ctx.services.log.error("audit write failed", { command, err });
  }
}

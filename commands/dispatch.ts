// The one way in: parse, authorise, validate, run, audit. Never throws at an adapter: failures become replies.
import { asRlError, RlError } from "../src/errors.ts";
import { allows, holdersOf, roleOf } from "../src/policy.ts";
import type { Reply } from "../src/reply.ts";
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
  if ("text" in input) return parseCommandText(input.text, commands);
  const command = commands.find((c) => c.name === input.name || c.toolName === input.name);
  if (!command) throw new RlError("USAGE", `Unknown command "${input.name}". Try /rl help.`);
  return { command, args: input.args };
}

export interface DispatchOptions {
  /** The person already confirmed (a Confirm button, a console "yes", or the command line). */
  confirmed?: boolean;
  commands?: readonly AnyCommand[];
}

/** The text a Confirm button re-runs: the command with its arguments as typed flags. */
export function commandText(command: AnyCommand, args: Record<string, unknown>): string {
  const parts = [`/rl ${command.name}`];
  const positional = command.positional ?? [];
  for (const name of positional) if (args[name] !== undefined) parts.push(JSON.stringify(String(args[name])));
  for (const [name, value] of Object.entries(args)) {
    if (positional.includes(name) || value === undefined) continue;
    if (value === true) parts.push(`--${name}`);
    else parts.push(`--${name}`, JSON.stringify(Array.isArray(value) ? value.join(",") : String(value)));
  }
  return parts.join(" ");
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

export async function dispatch(input: CommandInput, ctx: CommandContext, options: DispatchOptions = {}): Promise<DispatchResult> {
  const commands = options.commands ?? COMMANDS;
  const { services } = ctx;
  let command: AnyCommand | undefined;
  let args: Record<string, unknown> = {};
  try {
    ({ command, args } = resolve(input, commands));
    const role = roleOf(services.config.policy, ctx.channel, { id: ctx.user.id, roles: ctx.user.roles });
    if (!allows(role, command.permission)) {
      const holders = holdersOf(services.config.policy, command.permission);
      throw new RlError(
        "FORBIDDEN",
        `/rl ${command.name} needs the ${command.permission} permission; you have ${role}. ${holders.length ? `Ask one of: ${holders.join(", ")}.` : "Ask the bot's operator to list you in RL_OPERATORS or RL_ADMINS."}`,
        { details: { needed: command.permission, role } },
      );
    }
    const parsed = command.args.safeParse(args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new RlError("USAGE", `${issue?.path.join(".") || "arguments"}: ${issue?.message ?? "invalid"}.\nUsage: ${usageOf(command)}`, {
        details: { usage: usageOf(command) },
      });
    }
    if (command.confirm && !options.confirmed) {
      return { reply: await confirmation(command, parsed.data as Record<string, unknown>, ctx), command, ok: true, needsConfirmation: true };
    }
    const reply = await command.run(parsed.data as Record<string, unknown>, ctx);
    if (command.mutates) audit(ctx, command.name, args, "ok");
    return { reply, command, ok: true };
  } catch (thrown) {
    const err = asRlError(thrown);
    if (err.code === "INTERNAL") services.log.error("command failed", { command: command?.name, channel: ctx.channel, user: ctx.user.id, err: thrown });
    else services.log.debug("command refused", { command: command?.name, code: err.code });
    if (command && (command.mutates || err.code === "FORBIDDEN")) audit(ctx, command.name, args, err.code === "FORBIDDEN" ? "refused" : "failed", err.message);
    return { reply: errorReply(err), command, ok: false };
  }
}

function audit(ctx: CommandContext, command: string, args: Record<string, unknown>, outcome: "ok" | "refused" | "failed", detail?: string): void {
  try {
    const redact = ctx.services.redact;
    ctx.services.audit.record({
      ...ctx.channel,
      userId: ctx.user.id,
      command,
      args: JSON.parse(redact(JSON.stringify(args))) as Record<string, unknown>,
      outcome,
      detail: detail === undefined ? undefined : redact(detail),
    });
  } catch (err) {
    ctx.services.log.error("audit write failed", { command, err });
  }
}

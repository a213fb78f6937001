// What a /rl subcommand is: a name, zod arguments, a permission level, and run() returning a neutral Reply.
import type { z } from "zod";
import type { ChannelKey } from "../db/channel-key.ts";
import type { RlError } from "../src/errors.ts";
import type { Operations } from "../src/operations.ts";
import type { Reply } from "../src/reply.ts";

/** The part of the core a command may use (src/operations.ts): operations and repositories, never the database. */
export type CommandServices = Operations;

export type Permission = "read" | "operate" | "admin";

export interface Caller {
  id: string;
  name?: string;
  /** Platform role ids and names (Discord), used by the access policy. */
  roles?: string[];
  /** The same roles kept apart, so a role merely named like another's id matches nothing. */
  roleIds?: string[];
  roleNames?: string[];
  /**
   * Reached the bot from outside this machine's terminal (an MCP client over HTTP, by a bearer token): on a console
   * channel their listed role applies, not the terminal's admin (src/policy.ts).
   */
  remote?: boolean;
}

export type ServiceName = keyof CommandServices;

/** The context a command runs in; `U` names the services it declared in `uses`, the only ones it is handed. */
export interface CommandContext<U extends ServiceName = ServiceName> {
  channel: ChannelKey;
  /** The thread the command came from (Slack thread ts, Discord thread id), where later notices go. */
  thread?: string;
  user: Caller;
  /** How the command arrived: typed, a button click, the LLM in chat mode, the command line, or a person's own agent (MCP). */
  via: "slash" | "button" | "chat" | "cli" | "console" | "mcp";
  services: Pick<CommandServices, U>;
  /** In chat mode, the person's message the model is answering: limits on the model's own polling last one turn. */
  turn?: string;
  /** Show progress on long work (an edited message, a console line). */
  progress?: (text: string) => Promise<void>;
  /** The approval request this command runs under: set only when an approver approved it (commands/approval/). */
  approval?: string;
}

export type ArgsSchema = z.ZodObject<z.ZodRawShape>;

export interface CommandDefinition<S extends ArgsSchema = ArgsSchema, U extends ServiceName = ServiceName> {
  name: string;
  /** One line for help and Discord. */
  summary: string;
  /** What a person must know to type it right, shown by /rl help <command> under the summary. */
  notes?: string;
  /** What the operation does and returns, honestly; used for the LLM tool description. */
  description: string;
  /** The LLM tool name, after the seed's operations (rl_list_environments, ...); absent = not a tool. */
  toolName?: string;
  args: S;
  /** Argument names taken from words in order; the rest are --flags. */
  positional?: ReadonlyArray<keyof z.output<S> & string>;
  /** The last positional takes the rest of the line verbatim (values with spaces or JSON). */
  restOfLine?: boolean;
  permission: Permission;
  /** The services run() and preview() use: the dispatcher hands them these and no others. */
  uses: readonly U[];
  /** Takes long enough that platforms should show progress (defer, "working..."). */
  slow?: boolean;
  /** Spends or ends training: platforms ask the person to confirm first. */
  confirm?: boolean;
  /** Changes state: recorded in the audit log. */
  mutates?: boolean;
  /**
   * A read for the person who asked (a long listing, their own look-up): on Slack and Discord it answers privately,
   * with a button that posts the same answer to the channel. Team actions (start, stop, sweep) leave this off.
   */
  personal?: boolean | ((args: z.output<S>) => boolean);
  examples?: string[];
  /** For confirm commands: what will happen (environment, changed fields, steps), shown before the person confirms. */
  preview?(args: z.output<S>, ctx: CommandContext<U>): Promise<Reply>;
  /**
   * A quick look, changing nothing, at whether run() would refuse this person now (approve: not an approver, or the
   * request is closed): surfaces ask before they show slow work in public, so a refusal reaches its person alone.
   * run() still decides.
   */
  refusal?(args: z.output<S>, ctx: CommandContext<U>): RlError | undefined;
  run(args: z.output<S>, ctx: CommandContext<U>): Promise<Reply>;
}

/** Whether this use of the command is a personal read (budget and notify are when they only show). */
export function isPersonalWith(command: Pick<AnyCommand, "personal">, args: Record<string, unknown>): boolean {
  const { personal } = command;
  return typeof personal === "function" ? personal(args) : personal === true;
}

/** A definition with its argument type erased, as the registry holds it. */
export interface AnyCommand extends Omit<CommandDefinition, "run" | "positional" | "preview" | "refusal" | "personal"> {
  personal?: boolean | ((args: Record<string, unknown>) => boolean);
  positional?: readonly string[];
  preview?(args: Record<string, unknown>, ctx: CommandContext): Promise<Reply>;
  refusal?(args: Record<string, unknown>, ctx: CommandContext): RlError | undefined;
  run(args: Record<string, unknown>, ctx: CommandContext): Promise<Reply>;
}

export function defineCommand<S extends ArgsSchema, U extends ServiceName>(
  definition: CommandDefinition<S, U>,
): AnyCommand {
  return definition as unknown as AnyCommand;
}

/** The context `command` runs in: the caller's, with only the services the command declared it uses. */
export function contextFor(command: Pick<AnyCommand, "uses">, ctx: CommandContext): CommandContext {
  const services = Object.fromEntries(command.uses.map((name) => [name, ctx.services[name]]));
  return { ...ctx, services: services as unknown as CommandServices };
}

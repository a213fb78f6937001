// Whether dispatch would get as far as running a command: surfaces ask before they show slow work in public.
import { checkPermission } from "./check-permission.ts";
import type { RunInput } from "./dispatch-result.ts";
import { resolveCommand } from "./run-command.ts";
import { contextFor, isPersonalWith, type AnyCommand, type CommandContext } from "./types.ts";

/**
 * The caller may run it here, its arguments are valid, and its own quick look (command.refusal) finds no reason to
 * refuse. Only decides whether a public "working" shows first; a refusal is then answered to the person alone. The
 * dispatcher remains the authority.
 */
export function willRun(input: RunInput, ctx: CommandContext, commands: readonly AnyCommand[]): boolean {
  try {
    const { command, args } = resolveCommand(input, commands);
    checkPermission(command, ctx);
    const parsed = command.args.safeParse(args);
    if (!parsed.success) return false;
    return command.refusal?.(parsed.data as Record<string, unknown>, contextFor(command, ctx)) === undefined;
  } catch {
    return false;
  }
}

/** Whether the input is a personal read (answered privately, "thinking…" too); false when it does not parse. */
export function isPersonal(input: RunInput, commands: readonly AnyCommand[]): boolean {
  try {
    const { command, args } = resolveCommand(input, commands);
    const parsed = command.args.safeParse(args);
    return isPersonalWith(command, parsed.success ? (parsed.data as Record<string, unknown>) : args);
  } catch {
    return false;
  }
}

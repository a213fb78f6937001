// Asks a person to confirm a command: records the prompt for them and makes its preview with Confirm / Cancel buttons.
import { asEphemeral, type Reply } from "../../src/reply.ts";
import { contextFor, type AnyCommand, type CommandContext } from "../types.ts";
import { readableText } from "./button-text.ts";

/**
 * The prompt: a preview, and Confirm / Cancel buttons carrying the id of a confirmation recorded for the asker.
 * The record keeps the arguments as they were given, so Confirm runs exactly those, once.
 */
export async function askConfirmation(
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
    ...asEphemeral(preview),
    buttons: [
      {
        kind: "confirm",
        label: "Confirm",
        command: text,
        style: command.name === "stop" ? "danger" : "primary",
        confirmation: record.id,
      },
      { kind: "cancel", label: "Cancel", confirmation: record.id },
    ],
  };
}

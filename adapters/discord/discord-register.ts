// Registers the /rl command with Discord (in one guild, or globally), logging rather than failing when it cannot.
import type { Client } from "discord.js";
import type { AnyCommand } from "../../commands/types.ts";
import type { Logger } from "../../src/log.ts";
import { buildRlCommand } from "./discord-command-json.ts";
import { inviteUrl } from "./discord-invite.ts";

export async function registerRlCommand(
  c: Client<true>,
  commands: readonly AnyCommand[],
  guildId: string | undefined,
  log: Logger,
): Promise<void> {
  const body = buildRlCommand(commands);
  try {
    await (guildId ? c.application.commands.set([body], guildId) : c.application.commands.set([body]));
    log.info("discord: /rl registered", {
      scope: guildId ? `guild ${guildId}` : "global",
      subcommands: body.options?.length ?? 0,
      // To add the bot to another server with the scopes and permissions it needs (docs/discord.md).
      invite: inviteUrl(c.application.id),
    });
  } catch (err) {
    // The bot still answers commands registered earlier; a later start registers again.
    log.error("discord: could not register /rl", { guildId, err });
  }
}

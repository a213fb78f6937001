// Logging the client in until it is ready, and what a failed login means: a refused token is configuration.
import { once } from "node:events";
import { DiscordAPIError, Events, type Client } from "discord.js";
import { RlError } from "../../src/errors.ts";

export async function logIn(c: Client, token: string): Promise<void> {
  await c.login(token);
  if (!c.isReady()) await once(c, Events.ClientReady);
}

/** A refused token is CONFIG naming DISCORD_TOKEN; anything else (network, gateway) is UPSTREAM. */
export function loginError(err: unknown): RlError {
  const refused =
    (err instanceof DiscordAPIError && err.status === 401) || (err as { code?: unknown }).code === "TokenInvalid";
  return refused
    ? new RlError(
        "CONFIG",
        "Discord refused DISCORD_TOKEN. Set DISCORD_TOKEN to the bot token from the Discord developer portal.",
        { cause: err },
      )
    : new RlError("UPSTREAM", `Could not connect to Discord: ${(err as Error).message}`, { cause: err });
}

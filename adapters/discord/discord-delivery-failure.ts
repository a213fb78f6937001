// The one place Discord's refusals are classified: a 429 waits its retry_after, a refusal that will not clear stops, the rest retry.
import { DiscordAPIError, RateLimitError, RESTJSONErrorCodes } from "discord.js";
import type { DeliveryFailure } from "../../src/outbox/delivery-failure.ts";

/** Refusals that stay until a person changes the channel or the bot's permissions: JSON error code -> what to do. */
const REFUSALS: Partial<Record<number, { reason: string; hint: string }>> = {
  [RESTJSONErrorCodes.UnknownChannel]: {
    reason: "Unknown Channel (10003)",
    hint: "the channel was deleted or the bot cannot see it; start runs from a channel the bot can post in",
  },
  [RESTJSONErrorCodes.UnknownGuild]: {
    reason: "Unknown Guild (10004)",
    hint: "the bot is no longer in this server; invite it again",
  },
  [RESTJSONErrorCodes.MissingAccess]: {
    reason: "Missing Access (50001)",
    hint: "the bot cannot see this channel (removed from the server, or no View Channel); give its role View Channel and Send Messages here",
  },
  [RESTJSONErrorCodes.CannotSendMessagesToThisUser]: {
    reason: "Cannot send messages to this user (50007)",
    hint: "the person allows no DMs from this server's members (or is a bot); the notice goes to the run's thread",
  },
  [RESTJSONErrorCodes.UnknownUser]: {
    reason: "Unknown User (10013)",
    hint: "Discord knows no such person; the notice goes to the run's thread",
  },
  [RESTJSONErrorCodes.MissingPermissions]: {
    reason: "Missing Permissions (50013)",
    hint: "give the bot's role Send Messages, Send Messages in Threads and Embed Links in this channel",
  },
};

/** What discord.js rejected a channel message with, as the outbox's verdict. */
export function classifyDiscordFailure(err: unknown): DeliveryFailure {
  // Only from a REST manager with rejectOnRateLimit: the default one waits the limit out itself.
  if (err instanceof RateLimitError) return { retryAfterMs: Math.max(0, err.retryAfter) };
  if (err instanceof DiscordAPIError) {
    const refusal = typeof err.code === "number" ? REFUSALS[err.code] : undefined;
    if (refusal) return { permanent: refusal.reason, hint: refusal.hint };
    if (err.status === 401)
      return {
        permanent: "401 Unauthorized",
        hint: "Discord no longer accepts DISCORD_TOKEN; set DISCORD_TOKEN to the bot's current token",
      };
  }
  return { transient: true };
}

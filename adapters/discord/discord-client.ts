// Builds the discord.js Client: its intents, the listeners that log gateway trouble, and the ones that answer.
import { Client, Events, GatewayIntentBits, Partials } from "discord.js";
import type { Logger } from "../../src/log.ts";
import { handleInteraction } from "./discord-interactions.ts";
import { handleMention } from "./discord-mentions.ts";
import { watchRest } from "./discord-rest.ts";
import type { DiscordDeps } from "./discord-run.ts";

/**
 * Guilds for channels, threads and roles; GuildMessages for mentions. Not the privileged MessageContent intent:
 * Discord still sends the content of messages that mention the bot, and asking for it unapproved (close code 4014)
 * would stop the whole bot from connecting. No DirectMessages: messages in the bot's DMs are not answered.
 * docs/discord.md names these; a test keeps the two the same.
 */
export const INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages];

export interface DiscordClientOptions {
  apiUrl: string | undefined;
  log: Logger;
  deps: DiscordDeps;
  /** Takes each handler's work, so stop() can let it finish; the handler's promise must not reject. */
  track: (work: Promise<void>) => void;
}

export function createDiscordClient({ apiUrl, log, deps, track }: DiscordClientOptions): Client {
  const c = new Client({
    intents: INTENTS,
    // Partial channels let interactions and messages in uncached threads and DMs still say where they came from.
    partials: [Partials.Channel],
    allowedMentions: { parse: [], repliedUser: false },
    ...(apiUrl ? { rest: { api: apiUrl.replace(/\/+$/, "") } } : {}),
  });
  // Without an "error" listener an EventEmitter error would throw and end the process.
  c.on(Events.Error, (err) => log.error("discord: client error", { err }));
  c.on(Events.Warn, (message) => log.warn("discord: warning", { message }));
  c.on(Events.ShardError, (err, shard) => log.warn("discord: gateway connection error", { shard, err }));
  c.on(Events.ShardDisconnect, (event, shard) =>
    log.error("discord: gateway closed for good", { shard, code: event.code }),
  );
  c.on(Events.ShardReconnecting, (shard) => log.warn("discord: gateway reconnecting", { shard }));
  c.on(Events.ShardResume, (shard, replayed) => log.info("discord: gateway resumed", { shard, replayed }));
  watchRest(c.rest, log);
  c.on(Events.InteractionCreate, (interaction) => track(handleInteraction(interaction, deps)));
  c.on(Events.MessageCreate, (message) => track(handleMention(message, deps)));
  return c;
}

// The Discord adapter (discord.js 14): registers /rl, answers interactions and mentions, posts notices; never crashes.
import { once } from "node:events";
import { Client, DiscordAPIError, Events, GatewayIntentBits, Partials, REST, RESTEvents } from "discord.js";
import type { ChannelKey } from "../../db/channel-key.ts";
import { COMMANDS } from "../../commands/index.ts";
import type { AnyCommand } from "../../commands/types.ts";
import { RlError } from "../../src/errors.ts";
import { renderChartPng, type ChartRenderer } from "../../src/metrics/render-chart.ts";
import type { Services } from "../../src/services.ts";
import { threadOfMessage, type AnchorHandler, type ChatAdapter, type ChatHandler } from "../chat-adapter.ts";
import { createButtonStore } from "./discord-buttons.ts";
import { buildRlCommand } from "./discord-command-json.ts";
import { handleInteraction } from "./discord-interactions.ts";
import { handleMention } from "./discord-mentions.ts";
import { postReply, updateReply } from "./discord-post.ts";
import type { DiscordDeps } from "./discord-run.ts";

export interface DiscordAdapterOptions {
  /** The registry to serve (tests pass their own; default: every /rl command). */
  commands?: readonly AnyCommand[];
  /** Chat mode for messages that mention the bot; without it they get a hint listing the /rl commands. */
  chat?: ChatHandler;
  /** A reply whose delivery has an anchorRunId was posted: later notices about the run go to this message or thread. */
  onAnchor?: AnchorHandler;
  /** This channel's run ids, newest first, for autocomplete. */
  runIds?: (channel: ChannelKey) => readonly string[] | Promise<readonly string[]>;
  /** How long stop() lets in-flight answers finish before disconnecting (default 10 s). */
  drainMs?: number;
  /** Draws a reply's chart as the PNG attached to it (default: the resvg renderer); tests pass one that fails. */
  renderChart?: ChartRenderer;
}

export interface DiscordAdapter extends ChatAdapter {
  readonly platform: "discord";
}

/**
 * Guilds for channels, threads and roles; GuildMessages for mentions. Not the privileged MessageContent intent:
 * Discord still sends the content of messages that mention the bot, and asking for it unapproved (close code 4014)
 * would stop the whole bot from connecting.
 */
const INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages];

export function createDiscordAdapter(services: Services, options: DiscordAdapterOptions = {}): DiscordAdapter {
  const { log } = services;
  const { token, guildId, apiUrl } = services.config.discord;
  const commands = options.commands ?? COMMANDS;
  const deps: DiscordDeps = {
    services,
    commands,
    buttons: createButtonStore({ redact: services.redact }),
    onAnchor: options.onAnchor,
    runIds: options.runIds,
    chat: options.chat,
    renderChart: options.renderChart ?? ((chart) => renderChartPng(chart)),
  };
  const inflight = new Set<Promise<void>>();
  let client: Client | undefined;
  let outboxRest: REST | undefined;

  // Handlers never throw; the catch is a last guard, since an unhandled rejection would end the process.
  const track = (work: Promise<void>): void => {
    const settled: Promise<void> = work
      .catch((err: unknown) => log.error("discord: handler failed", { err }))
      .finally(() => inflight.delete(settled));
    inflight.add(settled);
  };

  // discord.js waits out 429s (the outbox's REST hands them back) and retries 5xx itself; these say it happened.
  // 4xx reach the handlers as errors.
  const watchRest = (rest: REST): void => {
    rest.on(RESTEvents.RateLimited, (info) =>
      log.warn("discord: rate limited", {
        route: info.route,
        method: info.method,
        retryAfterMs: info.retryAfter,
        global: info.global,
        scope: info.scope,
      }),
    );
    rest.on(RESTEvents.Response, (request, response) => {
      if (response.status === 429) {
        log.warn("discord: rate limited", {
          route: request.route,
          method: request.method,
          retryAfterSeconds: response.headers.get("retry-after"),
        });
      } else if (response.status >= 500) {
        log.warn("discord: server error, retrying", {
          route: request.route,
          method: request.method,
          status: response.status,
          retries: request.retries,
        });
      }
    });
  };

  const createClient = (): Client => {
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
    watchRest(c.rest);
    c.on(Events.InteractionCreate, (interaction) => track(handleInteraction(interaction, deps)));
    c.on(Events.MessageCreate, (message) => track(handleMention(message, deps)));
    return c;
  };

  const register = async (c: Client<true>): Promise<void> => {
    const body = buildRlCommand(commands);
    try {
      await (guildId ? c.application.commands.set([body], guildId) : c.application.commands.set([body]));
      log.info("discord: /rl registered", {
        scope: guildId ? `guild ${guildId}` : "global",
        subcommands: body.options?.length ?? 0,
      });
    } catch (err) {
      // The bot still answers commands registered earlier; a later start registers again.
      log.error("discord: could not register /rl", { guildId, err });
    }
  };

  return {
    platform: "discord",
    threads: true,
    async start() {
      if (client) return;
      if (!token)
        throw new RlError(
          "CONFIG",
          "DISCORD_TOKEN is required for Discord. Set DISCORD_TOKEN to the bot token from the Discord developer portal.",
        );
      const c = createClient();
      client = c;
      // The outbox's posts go through their own REST manager that rejects on a rate limit (RateLimitError with
      // retryAfter) instead of holding the message in memory: the outbox then owns the wait, durably. Interaction
      // answers keep the client's manager, which waits, since they must land within Discord's time limits.
      const rest = new REST({
        ...(apiUrl ? { api: apiUrl.replace(/\/+$/, "") } : {}),
        rejectOnRateLimit: () => true,
      }).setToken(token);
      watchRest(rest);
      outboxRest = rest;
      try {
        await c.login(token);
        if (!c.isReady()) await once(c, Events.ClientReady);
      } catch (err) {
        client = undefined;
        outboxRest = undefined;
        await c.destroy().catch(() => undefined);
        const refused =
          (err instanceof DiscordAPIError && err.status === 401) || (err as { code?: unknown }).code === "TokenInvalid";
        throw refused
          ? new RlError(
              "CONFIG",
              "Discord refused DISCORD_TOKEN. Set DISCORD_TOKEN to the bot token from the Discord developer portal.",
              { cause: err },
            )
          : new RlError("UPSTREAM", `Could not connect to Discord: ${(err as Error).message}`, { cause: err });
      }
      if (c.isReady()) await register(c);
      log.info("discord: connected", { user: c.user?.tag, guilds: c.guilds.cache.size });
    },

    async stop() {
      const c = client;
      client = undefined;
      outboxRest?.clearHashSweeper();
      outboxRest?.clearHandlerSweeper();
      outboxRest = undefined;
      if (!c) return;
      let timer: NodeJS.Timeout | undefined;
      const drained = Promise.allSettled([...inflight]);
      await Promise.race([
        drained,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, options.drainMs ?? 10_000))),
      ]);
      clearTimeout(timer);
      await c.destroy();
    },

    async post(target, reply, delivery) {
      if (!client || !outboxRest)
        throw new RlError("UPSTREAM", "Discord is not started; the message will be posted once it is.");
      return postReply(client, outboxRest, target, reply, deps, delivery);
    },

    async update(ref, reply) {
      if (!client) throw new RlError("UPSTREAM", "Discord is not started; the message will be edited once it is.");
      return updateReply(client, ref, reply, deps);
    },

    // A message's replies (message_reference) or the thread channel it is in.
    threadOf: threadOfMessage,
  };
}

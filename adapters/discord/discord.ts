// The Discord adapter (discord.js 14): registers /rl, answers interactions and mentions, posts notices; never crashes.
import type { Client, REST } from "discord.js";
import type { ChannelKey } from "../../db/channel-key.ts";
import { COMMANDS } from "../../commands/index.ts";
import type { AnyCommand } from "../../commands/types.ts";
import { RlError } from "../../src/errors.ts";
import { renderChartPng, type ChartRenderer } from "../../src/metrics/render-chart.ts";
import type { Services } from "../../src/services.ts";
import { threadOfMessage, type AnchorHandler, type ChatAdapter, type ChatHandler } from "../chat-adapter.ts";
import { createInFlightWork } from "../in-flight-work.ts";
import { createButtonStore } from "./discord-buttons.ts";
import { createDiscordClient } from "./discord-client.ts";
import { logIn, loginError } from "./discord-login.ts";
import { postReply, updateReply } from "./discord-post.ts";
import { registerRlCommand } from "./discord-register.ts";
import { createOutboxRest } from "./discord-rest.ts";
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
  const work = createInFlightWork();
  let client: Client | undefined;
  let outboxRest: REST | undefined;

  // Handlers never throw; the catch is a last guard, since an unhandled rejection would end the process.
  const track = (handling: Promise<void>): void => {
    void work.track(handling.catch((err: unknown) => log.error("discord: handler failed", { err })));
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
      const c = createDiscordClient({ apiUrl, log, deps, track });
      client = c;
      outboxRest = createOutboxRest(token, apiUrl, log);
      try {
        await logIn(c, token);
      } catch (err) {
        client = undefined;
        outboxRest = undefined;
        await c.destroy().catch(() => undefined);
        throw loginError(err);
      }
      if (c.isReady()) await registerRlCommand(c, commands, guildId, log);
      log.info("discord: connected", { user: c.user?.tag, guilds: c.guilds.cache.size });
    },

    async stop() {
      const c = client;
      client = undefined;
      outboxRest?.clearHashSweeper();
      outboxRest?.clearHandlerSweeper();
      outboxRest = undefined;
      if (!c) return;
      await work.settle(options.drainMs ?? 10_000);
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

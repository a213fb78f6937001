// Starts the fake Discord and the bot as src/main.ts wires it (createBot: real services on a temp SQLite file with one
// environment, the Discord adapter, digests and notices).
import { EventEmitter } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach } from "vitest";
import type { ChatHandler } from "../../adapters/chat-adapter.ts";
import type { DiscordAdapter, DiscordAdapterOptions } from "../../adapters/discord/discord.ts";
import { COMMANDS } from "../../commands/index.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import { createLogger } from "../../src/log.ts";
import { createBot, type Bot } from "../../src/main.ts";
import type { Services } from "../../src/services.ts";
import { IDS, startFakeDiscord, type FakeDiscord, type RecordedCall } from "../fakes/discord-gateway.ts";
import { writeBigEnvironment } from "../helpers/big-environment.ts";
import { stopLiveRuns } from "../helpers/demo-stack.ts";
import { tempDir, testConfig } from "../helpers/test-services.ts";
import { TEST_COMMANDS } from "./test-commands.ts";

export const FOO_ENV = `from atroposlib.envs.base import BaseEnv, BaseEnvConfig
from pydantic import Field


class FooConfig(BaseEnvConfig):
    temperature: float = Field(default=0.7, description="Sampling temperature")


class FooEnv(BaseEnv):
    name = "foo"
    env_config_cls = FooConfig


if __name__ == "__main__":
    FooEnv.cli()
`;

export interface LogEntry {
  level: string;
  message: string;
  [key: string]: unknown;
}

export interface Harness {
  fake: FakeDiscord;
  bot: Bot;
  services: Services;
  adapter: DiscordAdapter;
  anchors: Anchor[];
  /** Resolves once onAnchor was called for `runId` (it runs after Discord answered the post). */
  anchored(runId: string): Promise<Anchor>;
  logs: LogEntry[];
  /** The channel key of #training, where the fake sends interactions by default. */
  channel: ChannelKey;
  /**
   * A bot restart against the same fake: the bot stops, and a new one starts on the same data folder (the same
   * SQLite file). `bot`, `services` and `adapter` then name the new ones.
   */
  restart(): Promise<void>;
}

export interface Anchor {
  runId: string;
  channel: ChannelKey;
  id: string;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  /** Register globally instead of on the fake guild. */
  global?: boolean;
  adapter?: Omit<DiscordAdapterOptions, "onAnchor" | "chat"> & { chat?: ChatHandler };
  heartbeatIntervalMs?: number;
  /** Prepare the fake (faults, ...) before the adapter connects. */
  beforeStart?: (fake: FakeDiscord) => void;
  /** Wait for discovery's first scan before returning (default true). */
  awaitFirstScan?: boolean;
  /** The services' clock (tests move it to expire prompts). */
  now?: () => number;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const fake = await startFakeDiscord({ heartbeatIntervalMs: options.heartbeatIntervalMs });
  const root = tempDir("rl-discord-");
  const envDir = path.join(root, "environments");
  tempDirWith(envDir, "foo_env.py", FOO_ENV);
  const logs: LogEntry[] = [];
  const log = createLogger(
    "debug",
    (s) => s,
    (line) => logs.push(JSON.parse(line) as LogEntry),
  );
  const config = testConfig({
    RL_TRAINING_ROOT: root,
    RL_ENVIRONMENTS_DIR: envDir,
    RL_OPERATORS: "discord:role:operators",
    RL_DEFAULT_ROLE: "read",
    DISCORD_TOKEN: fake.token,
    DISCORD_API_URL: fake.apiUrl,
    ...(options.global ? {} : { DISCORD_GUILD_ID: fake.ids.guild }),
    ...options.env,
  });
  const anchors: Anchor[] = [];
  const anchorEvents = new EventEmitter();
  const { chat, ...adapterOptions } = options.adapter ?? {};
  const startBot = (): Promise<Bot> =>
    createBot(config, {
      services: { log, ...(options.now ? { now: options.now } : {}) },
      ...(chat ? { chat } : {}),
      discord: { commands: TEST_COMMANDS, ...adapterOptions },
      onAnchor: (runId, channel, id) => {
        anchors.push({ runId, channel, id });
        anchorEvents.emit("anchor");
      },
    });
  const anchored = (runId: string): Promise<Anchor> =>
    new Promise((resolve) => {
      const check = (): void => {
        const found = anchors.find((a) => a.runId === runId);
        if (!found) return;
        anchorEvents.off("anchor", check);
        resolve(found);
      };
      anchorEvents.on("anchor", check);
      check();
    });
  options.beforeStart?.(fake);
  const adapterOf = (bot: Bot): DiscordAdapter => {
    if (!bot.discord) throw new Error("the bot started without Discord");
    return bot.discord;
  };
  let bot: Bot;
  try {
    bot = await startBot();
  } catch (err) {
    await fake.close();
    throw err;
  }
  // Discovery's first scan starts its worker thread, which on a loaded machine can take past the 1 s at which a
  // command is deferred; the tests here are about answers, so the folder is scanned once before any command.
  if (options.awaitFirstScan !== false) await bot.services.env.listEnvironments();
  const harness: Harness = {
    fake,
    bot,
    services: bot.services,
    adapter: adapterOf(bot),
    anchors,
    anchored,
    logs,
    channel: { platform: "discord", workspace: fake.ids.guild, channel: fake.ids.channel },
    async restart() {
      await harness.bot.stop();
      harness.bot = await startBot();
      harness.services = harness.bot.services;
      harness.adapter = adapterOf(harness.bot);
    },
  };
  return harness;
}

function tempDirWith(dir: string, file: string, content: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, file), content);
}

export async function stopHarness(h: Harness | undefined): Promise<void> {
  if (!h) return;
  await h.bot.stop();
  await h.fake.close();
}

/**
 * Call at a test file's top level: returns the start its tests use. The harness a test started is stopped after it
 * (with `stopRuns`, its live runs first); starting another in the same test stops the one before.
 */
export function harnessPerTest(perTest: { stopRuns?: boolean } = {}): (options?: HarnessOptions) => Promise<Harness> {
  let current: Harness | undefined;
  const stop = async () => {
    const h = current;
    current = undefined;
    if (h && perTest.stopRuns) await stopLiveRuns(h.services);
    await stopHarness(h);
  };
  afterEach(stop);
  return async (options) => {
    await stop();
    current = await startHarness(options);
    return current;
  };
}

/** The bot with its real commands on a training root whose one environment is the 99-field "big" (writeBigEnvironment). */
export function onBigEnvironment(hostile = ""): HarnessOptions {
  const { root, envDir } = writeBigEnvironment(hostile);
  return { env: { RL_TRAINING_ROOT: root, RL_ENVIRONMENTS_DIR: envDir }, adapter: { commands: COMMANDS } };
}

/** The JSON body the bot sent (callback bodies carry {type, data}). */
export function bodyOf(call: RecordedCall): Record<string, unknown> {
  return (call.body ?? {}) as Record<string, unknown>;
}

/** The embeds of a callback, followup, edit or channel message body. */
export function embedsOf(call: RecordedCall): Array<Record<string, unknown>> {
  const body = bodyOf(call);
  const data = (typeof body["type"] === "number" ? body["data"] : body) as Record<string, unknown> | undefined;
  return (data?.["embeds"] ?? []) as Array<Record<string, unknown>>;
}

/**
 * The call that carries an interaction's answer: its callback, or, when the bot deferred (type 5: "thinking...", which
 * it does once an answer takes near Discord's 3 s, as on a loaded machine), the edit of @original that follows.
 */
export async function answerOf(
  fake: { waitForCall(match: (c: RecordedCall) => boolean, what: string): Promise<RecordedCall> },
  interaction: { token: string; callback(): Promise<RecordedCall> },
): Promise<RecordedCall> {
  const callback = await interaction.callback();
  if (bodyOf(callback)["type"] !== 5) return callback;
  return fake.waitForCall(isEditOriginal(interaction.token), "the answer after the deferral");
}

/** The buttons (custom_id, label) of a message body. */
export function buttonsOf(call: RecordedCall): Array<{ custom_id: string; label: string; style: number }> {
  const body = bodyOf(call);
  const data = (typeof body["type"] === "number" ? body["data"] : body) as Record<string, unknown> | undefined;
  const rows = (data?.["components"] ?? []) as Array<{
    components: Array<{ custom_id: string; label: string; style: number }>;
  }>;
  return rows.flatMap((r) => r.components);
}

/** The id of the message a call created or edited (from the fake's answer). */
/** The bot's reply to message `id` (POST /channels/:id/messages with message_reference). */
export const replyTo = (harness: Harness, id: string): Promise<RecordedCall> =>
  harness.fake.waitForCall(
    (c) =>
      c.method === "POST" &&
      c.path === `/channels/${IDS.channel}/messages` &&
      (bodyOf(c)["message_reference"] as { message_id?: string } | undefined)?.message_id === id,
    `a reply to message ${id}`,
  );

export function messageIdOf(call: RecordedCall): string {
  const response = call.response as { id?: string; resource?: { message?: { id?: string } } } | undefined;
  const id = response?.resource?.message?.id ?? response?.id;
  if (!id) throw new Error(`${call.method} ${call.path} created no message`);
  return id;
}

export const isCallback =
  (id: string) =>
  (c: RecordedCall): boolean =>
    c.method === "POST" && c.path.startsWith(`/interactions/${id}/`) && c.status < 300;
export const isEditOriginal =
  (token: string) =>
  (c: RecordedCall): boolean =>
    c.method === "PATCH" && c.path.endsWith(`/${token}/messages/@original`) && c.status < 300;
export const isFollowup =
  (token: string) =>
  (c: RecordedCall): boolean =>
    c.method === "POST" && c.path.endsWith(`/${token}`) && c.path.startsWith("/webhooks/") && c.status < 300;

/** The first embed's title of a reply or message call ("" when it has none). */
export const titleOf = (call: RecordedCall): string => String(embedsOf(call)[0]?.["title"] ?? "");

/** The first embed's fields, by name. */
export const fieldsOf = (call: RecordedCall): Record<string, string> =>
  Object.fromEntries(
    ((embedsOf(call)[0]?.["fields"] ?? []) as Array<{ name: string; value: string }>).map((f) => [f.name, f.value]),
  );

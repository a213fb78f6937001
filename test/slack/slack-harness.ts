// Starts the fake Slack and the bot as src/main.ts wires it (createBot: real services on a temp SQLite file, the real
// Slack adapter, digests and notices); sends signed requests to it.
import type { AnchorHandler, ChatHandler } from "../../adapters/chat-adapter.ts";
import type { SlackAdapter, SlackAdapterOptions } from "../../adapters/slack/slack.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { Logger } from "../../src/log.ts";
import { createBot, type Bot } from "../../src/main.ts";
import type { Services } from "../../src/services.ts";
import { startFakeSlackApi, type FakeSlack } from "../fakes/slack-api.ts";
import { Recorder } from "../fakes/slack-recorder.ts";
import { tempDir, testConfig } from "../helpers/test-services.ts";
import { signedHeaders } from "./slack-payloads.ts";

export const BOT_TOKEN = "xoxb-1111111111-2222222222-fakebottokenvalue";
export const APP_TOKEN = "xapp-1-A0FAKEAPP-3333333333-fakeapptokenvalue";
export const SIGNING_SECRET = "fake-signing-secret-0123456789abcdef";

export interface SlackHarness {
  fake: FakeSlack;
  bot: Bot;
  services: Services;
  adapter: SlackAdapter;
  /** Every onAnchor call (a run's message recorded as its thread). */
  anchors: Recorder<{ runId: string; channel: ChannelKey; ts: string }>;
  /** POST a signed form body (slash command) to the HTTP receiver. */
  slash(fields: Record<string, string>): Promise<Response>;
  /** POST a signed block_actions payload to the HTTP receiver. */
  click(payload: Record<string, unknown>): Promise<Response>;
  /** POST a signed Events API callback to the HTTP receiver. */
  event(body: Record<string, unknown>): Promise<Response>;
  /** POST a raw body with the given headers (for bad signatures). */
  raw(body: string, headers: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export interface HarnessOptions extends Omit<SlackAdapterOptions, "onAnchor" | "host" | "chat"> {
  socketMode?: boolean;
  /** Replaces the bot's chat handler (built from the LLM settings). */
  chat?: ChatHandler;
  env?: Record<string, string>;
  log?: Logger;
  /** The services' clock (tests move it to expire prompts). */
  now?: () => number;
  /** Runs when a run's message is posted, before the harness records it in `anchors`. */
  onAnchor?: AnchorHandler;
}

export async function startSlackHarness(options: HarnessOptions = {}): Promise<SlackHarness> {
  const fake = await startFakeSlackApi({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
  const config = testConfig({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_API_URL: fake.apiUrl,
    SLACK_PORT: "0",
    // An empty training root: these tests need no environments, and do not depend on the demo stack being there.
    RL_TRAINING_ROOT: tempDir("rl-slack-root-"),
    ...(options.socketMode ? { SLACK_APP_TOKEN: APP_TOKEN } : { SLACK_SIGNING_SECRET: SIGNING_SECRET }),
    ...options.env,
  });
  const anchors: SlackHarness["anchors"] = new Recorder();
  const { socketMode: _socketMode, env: _env, log, now, chat, onAnchor, ...adapterOptions } = options;
  let bot: Bot;
  try {
    bot = await createBot(config, {
      services: { ...(log ? { log } : {}), ...(now ? { now } : {}) },
      ...(chat ? { chat } : {}),
      slack: { ...adapterOptions, host: "127.0.0.1" },
      onAnchor: async (runId, channel, ts) => {
        await onAnchor?.(runId, channel, ts);
        anchors.push({ runId, channel, ts });
      },
    });
  } catch (err) {
    await fake.close();
    throw err;
  }
  const close = async () => {
    await bot.stop();
    await fake.close();
  };
  const adapter = bot.slack;
  if (!adapter) throw new Error("the bot started without Slack");
  const started = adapter;
  const raw = (body: string, headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${started.port() ?? 0}/slack/events`, { method: "POST", headers, body });
  const signed = (body: string, contentType: string) => raw(body, signedHeaders(SIGNING_SECRET, body, contentType));
  return {
    fake,
    bot,
    services: bot.services,
    adapter: started,
    anchors,
    slash: (fields) => signed(new URLSearchParams(fields).toString(), "application/x-www-form-urlencoded"),
    click: (payload) =>
      signed(new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), "application/x-www-form-urlencoded"),
    event: (body) => signed(JSON.stringify(body), "application/json"),
    raw,
    close,
  };
}

interface RenderedButton {
  action_id: string;
  value: string;
  text: { text: string };
}

/** The buttons in a message's blocks, in order, as Slack would show them. */
export function buttonsOf(blocks: unknown): RenderedButton[] {
  if (!Array.isArray(blocks)) return [];
  return blocks.flatMap((b: { type?: string; elements?: RenderedButton[] }) =>
    b.type === "actions" ? (b.elements ?? []) : [],
  );
}

/** Every piece of text in a message's blocks, joined, for "contains" assertions. */
export function textOf(blocks: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") return;
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      if (typeof o.text === "string") out.push(o.text);
      Object.values(o).forEach(walk);
    }
  };
  walk(blocks);
  return out.join("\n");
}

export interface CapturedLine {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  context: Record<string, unknown>;
}

/** A Logger that keeps every line, for asserting that failures were logged with context. */
export function captureLog(): Logger & { lines: CapturedLine[] } {
  const lines: CapturedLine[] = [];
  const at =
    (level: CapturedLine["level"]) =>
    (message: string, context: Record<string, unknown> = {}) =>
      void lines.push({ level, message, context });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

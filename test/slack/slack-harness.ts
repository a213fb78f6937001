// Starts the fake Slack, real services on a temp SQLite file and the real Slack adapter; sends signed requests to it.
import type { AnchorHandler } from "../../adapters/chat-adapter.ts";
import { createSlackAdapter, type SlackAdapter, type SlackAdapterOptions } from "../../adapters/slack/slack.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { Logger } from "../../src/log.ts";
import type { Services } from "../../src/services.ts";
import { startFakeSlackApi, type FakeSlack } from "../fakes/slack-api.ts";
import { Recorder } from "../fakes/slack-recorder.ts";
import { tempDir, testServices } from "../helpers/test-services.ts";
import { signedHeaders } from "./slack-payloads.ts";

export const BOT_TOKEN = "xoxb-1111111111-2222222222-fakebottokenvalue";
export const APP_TOKEN = "xapp-1-A0FAKEAPP-3333333333-fakeapptokenvalue";
export const SIGNING_SECRET = "fake-signing-secret-0123456789abcdef";

export interface SlackHarness {
  fake: FakeSlack;
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

export interface HarnessOptions extends Omit<SlackAdapterOptions, "onAnchor" | "host"> {
  socketMode?: boolean;
  /** The app's own anchor handler, built from the services (main.ts records the run's thread); called before recording. */
  onAnchor?: (services: Services) => AnchorHandler;
  env?: Record<string, string>;
  log?: Logger;
  /** The services' clock (tests move it to expire prompts). */
  now?: () => number;
}

export async function startSlackHarness(options: HarnessOptions = {}): Promise<SlackHarness> {
  const fake = await startFakeSlackApi({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
  const services = testServices({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_API_URL: fake.apiUrl,
    SLACK_PORT: "0",
    // An empty training root: these tests need no environments, and do not depend on the demo stack being there.
    RL_TRAINING_ROOT: tempDir("rl-slack-root-"),
    ...(options.socketMode ? { SLACK_APP_TOKEN: APP_TOKEN } : { SLACK_SIGNING_SECRET: SIGNING_SECRET }),
    ...options.env,
  }, { ...(options.log ? { log: options.log } : {}), ...(options.now ? { now: options.now } : {}) });
  const anchors: SlackHarness["anchors"] = new Recorder();
  let adapter: SlackAdapter | undefined;
  const close = async () => {
    await adapter?.stop();
    await services.close();
    await fake.close();
  };
  try {
    const { socketMode: _socketMode, env: _env, log: _log, now: _now, onAnchor: appAnchor, ...adapterOptions } = options;
    const handler = appAnchor?.(services);
    adapter = await createSlackAdapter(services, {
      ...adapterOptions,
      host: "127.0.0.1",
      onAnchor: async (runId, channel, ts) => {
        await handler?.(runId, channel, ts);
        anchors.push({ runId, channel, ts });
      },
    });
    await adapter.start();
  } catch (err) {
    await close();
    throw err;
  }
  const started = adapter;
  const raw = (body: string, headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${started.port() ?? 0}/slack/events`, { method: "POST", headers, body });
  const signed = (body: string, contentType: string) => raw(body, signedHeaders(SIGNING_SECRET, body, contentType));
  return {
    fake,
    services,
    adapter: started,
    anchors,
    slash: (fields) => signed(new URLSearchParams(fields).toString(), "application/x-www-form-urlencoded"),
    click: (payload) => signed(new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), "application/x-www-form-urlencoded"),
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
  return blocks.flatMap((b: { type?: string; elements?: RenderedButton[] }) => (b.type === "actions" ? (b.elements ?? []) : []));
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
  const at = (level: CapturedLine["level"]) => (message: string, context: Record<string, unknown> = {}) => void lines.push({ level, message, context });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

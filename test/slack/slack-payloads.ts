// Real-shaped Slack payloads (slash command, button click, events) with fake ids, and v0 request signing.
import { createHmac } from "node:crypto";

export const TEAM = "T0FAKE";
export const CHANNEL = "C0RUNS";
export const ALICE = { id: "U0ALICE", name: "alice" };
export const BOB = { id: "U0BOB", name: "bob" };

/** Slack's v0 signature: HMAC-SHA256 of "v0:{timestamp}:{body}" with the signing secret. */
export function signedHeaders(
  secret: string,
  body: string,
  contentType: string,
  timestamp = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const signature = `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
  return {
    "content-type": contentType,
    "x-slack-request-timestamp": String(timestamp),
    "x-slack-signature": signature,
  };
}

export interface SlashOptions {
  text: string;
  responseUrl: string;
  user?: { id: string; name: string };
  channel?: string;
  command?: string;
}

/** The fields Slack sends for a slash command (form-encoded over HTTP, JSON in Socket Mode). */
export function slashCommand(o: SlashOptions): Record<string, string> {
  const user = o.user ?? ALICE;
  return {
    token: "verification-token-unused",
    team_id: TEAM,
    team_domain: "fake-team",
    channel_id: o.channel ?? CHANNEL,
    channel_name: "rl-runs",
    user_id: user.id,
    user_name: user.name,
    command: o.command ?? "/rl",
    text: o.text,
    api_app_id: "A0FAKEAPP",
    is_enterprise_install: "false",
    response_url: o.responseUrl,
    trigger_id: "1337.42.fake-trigger",
  };
}

export interface ClickOptions {
  /** A button as the adapter rendered it (from the blocks Slack received). */
  button: { action_id: string; value: string; text: { text: string } };
  responseUrl: string;
  user?: { id: string; name: string };
  channel?: string;
  /** The clicked message: an ephemeral prompt, or a message with this ts. */
  ephemeral?: boolean;
  messageTs?: string;
  /** A public message's content and thread, as Slack sends them back in the payload (its blocks are the bot's). */
  message?: { text?: string; blocks?: unknown; thread_ts?: string };
}

/** A block_actions payload for one button click. */
export function buttonClick(o: ClickOptions): Record<string, unknown> {
  const user = o.user ?? ALICE;
  const channel = o.channel ?? CHANNEL;
  const messageTs = o.messageTs ?? "1700000000.000001";
  return {
    type: "block_actions",
    user: { id: user.id, username: user.name, name: user.name, team_id: TEAM },
    api_app_id: "A0FAKEAPP",
    token: "verification-token-unused",
    container: {
      type: "message",
      message_ts: messageTs,
      channel_id: channel,
      is_ephemeral: o.ephemeral === true,
      ...(o.message?.thread_ts ? { thread_ts: o.message.thread_ts } : {}),
    },
    trigger_id: "1337.43.fake-trigger",
    team: { id: TEAM, domain: "fake-team" },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: channel, name: "rl-runs" },
    ...(o.ephemeral ? {} : { message: { type: "message", ts: messageTs, text: "…", user: "U0BOT", ...o.message } }),
    state: { values: {} },
    response_url: o.responseUrl,
    actions: [
      {
        action_id: o.button.action_id,
        block_id: "b1",
        text: { type: "plain_text", text: o.button.text.text, emoji: true },
        value: o.button.value,
        type: "button",
        action_ts: "1700000001.000002",
      },
    ],
  };
}

/** An Events API callback (app_mention, message.im) as Slack posts it. */
export function eventCallback(event: Record<string, unknown>): Record<string, unknown> {
  return {
    token: "verification-token-unused",
    team_id: TEAM,
    api_app_id: "A0FAKEAPP",
    event: { event_ts: event.ts, ...event },
    type: "event_callback",
    event_id: `Ev${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
    event_time: 1_700_000_000,
    authorizations: [
      { enterprise_id: null, team_id: TEAM, user_id: "U0BOT", is_bot: true, is_enterprise_install: false },
    ],
    is_ext_shared_channel: false,
  };
}

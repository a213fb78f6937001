// The Slack adapter: a Bolt app (Socket Mode with SLACK_APP_TOKEN, else HTTP) that turns /rl, clicks and mentions into commands.
import type { Server } from "node:http";
import {
  App,
  HTTPReceiver,
  LogLevel,
  SocketModeReceiver,
  webApi,
  type RespondFn,
  type SlackActionMiddlewareArgs,
} from "@slack/bolt";
import type { AnyCommand } from "../../commands/types.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import { deliveryError } from "../../src/outbox/delivery-failure.ts";
import { RlError } from "../../src/errors.ts";
import { renderChartPng, type ChartRenderer } from "../../src/metrics/render-chart.ts";
import type { Services } from "../../src/services.ts";
import { threadOfMessage, type AnchorHandler, type ChatAdapter, type ChatHandler } from "../chat-adapter.ts";
import { recordAnchor } from "../record-anchor.ts";
import { decodeButtonValue } from "./slack-button-value.ts";
import { shareChart } from "./slack-chart.ts";
import { answerChat } from "./slack-chat.ts";
import { classifySlackFailure } from "./slack-delivery-failure.ts";
import { createSlackLogger } from "./slack-logger.ts";
import { slackErrorCode } from "./slack-error-code.ts";
import { createSlackMessenger, type SendResult } from "./slack-messenger.ts";
import { createSlackPeople } from "./slack-people.ts";
import { turnSlackPage } from "./slack-page.ts";
import { renderPlain, renderSlack } from "./slack-render.ts";
import { answerSlackPrompt, runSlackCommand, type SlackCommandDeps } from "./slack-run-command.ts";

export interface SlackAdapterOptions {
  /** Records a run's message as its thread (services.runs once it exists). */
  onAnchor?: AnchorHandler;
  /** The chat entry point for mentions and direct messages; without it they get a hint. */
  chat?: ChatHandler;
  /** The slash command as registered in the Slack app. */
  slashCommand?: string;
  /** Interface for the HTTP receiver (default: all interfaces; tests use 127.0.0.1). */
  host?: string;
  /** Tests only: the command list dispatch uses instead of the registry. */
  commands?: readonly AnyCommand[];
  /** Draws a reply's chart as the PNG shared after it (default: the resvg renderer); tests pass one that fails. */
  renderChart?: ChartRenderer;
}

export interface SlackAdapter extends ChatAdapter {
  readonly platform: "slack";
  readonly mode: "socket" | "http";
  /** The HTTP receiver's port once started (useful with SLACK_PORT=0); undefined in Socket Mode. */
  port(): number | undefined;
}

/** Retry network failures and 5xx a few times; 429s wait for Retry-After first (the WebClient does that, except for the outbox's client). */
const RETRY: webApi.RetryOptions = { retries: 4, factor: 2, minTimeout: 500, maxTimeout: 10_000 };
const REQUEST_TIMEOUT_MS = 20_000;
/** How long stop() waits for commands in progress before closing anyway. */
const STOP_GRACE_MS = 10_000;

export async function createSlackAdapter(services: Services, options: SlackAdapterOptions = {}): Promise<SlackAdapter> {
  const { slack } = services.config;
  const { log } = services;
  if (!slack.botToken) throw new RlError("CONFIG", "botToken is required for Slack. Set SLACK_BOT_TOKEN (xoxb-...).");
  if (!slack.appToken && !slack.signingSecret) {
    throw new RlError(
      "CONFIG",
      "Slack needs a way to receive events. Set SLACK_APP_TOKEN (xapp-..., Socket Mode, no public URL) or SLACK_SIGNING_SECRET (HTTP mode on SLACK_PORT).",
    );
  }
  const mode = slack.appToken ? "socket" : "http";
  const logger = createSlackLogger(log, services.config.logLevel === "debug" ? LogLevel.DEBUG : LogLevel.INFO);
  // Each client gets its own copy: Bolt and the Socket Mode client write defaults into the object they are given.
  const clientOptions = (): webApi.WebClientOptions => ({
    slackApiUrl: slack.apiUrl,
    retryConfig: RETRY,
    timeout: REQUEST_TIMEOUT_MS,
    logger,
  });
  // The Socket Mode client keeps its own long retry policy for apps.connections.open, so reconnects outlast an outage.
  const socketClientOptions: webApi.WebClientOptions = {
    slackApiUrl: slack.apiUrl,
    timeout: REQUEST_TIMEOUT_MS,
    logger,
  };
  const socketReceiver = slack.appToken
    ? new SocketModeReceiver({
        appToken: slack.appToken,
        logger,
        installerOptions: { clientOptions: socketClientOptions },
      })
    : undefined;
  const receiver =
    socketReceiver ?? new HTTPReceiver({ signingSecret: slack.signingSecret ?? "", port: slack.port, logger });
  const app = new App({
    token: slack.botToken,
    receiver,
    logger,
    clientOptions: clientOptions(),
    deferInitialization: true,
  });
  app.error(async (error) => {
    log.error("slack handler failed", { code: error.code, err: error });
  });
  try {
    await app.init(); // auth.test: a bad token fails here, at start-up, not on the first command
  } catch (err) {
    throw new RlError(
      "CONFIG",
      `Slack refused SLACK_BOT_TOKEN (${slackErrorCode(err)}). Check SLACK_BOT_TOKEN and SLACK_API_URL.`,
      { cause: err },
    );
  }

  const messenger = createSlackMessenger(app.client, log);
  // The outbox's posts: a 429 comes back at once with its Retry-After, so the outbox (not this client) owns the
  // wait, the message is not held in memory meanwhile, and the rest of the channel's queue waits with it.
  const outboxClient = new webApi.WebClient(slack.botToken, { ...clientOptions(), rejectRateLimitedCalls: true });
  const outboxMessenger = createSlackMessenger(outboxClient, log);
  const people = createSlackPeople(app.client, log, services.now);
  const renderChart: ChartRenderer = options.renderChart ?? ((chart) => renderChartPng(chart));
  const deps: SlackCommandDeps = {
    services,
    messenger,
    people,
    commands: options.commands,
    onAnchor: options.onAnchor,
    renderChart,
  };
  const inFlight = new Set<Promise<void>>();
  /** Handlers are awaited by Bolt, but stop() also waits for them so the database is not closed under them. */
  const track = async (work: Promise<void>): Promise<void> => {
    inFlight.add(work);
    try {
      await work;
    } finally {
      inFlight.delete(work);
    }
  };
  /**
   * After its ack, an event's work waits for the loop's next turn: the acks of requests that arrived together all go
   * out first (Slack wants each within 3 s, and 20 answers take tens of ms of CPU). Tracked from the ack on, so stop()
   * waits for work that has not begun yet too.
   */
  const afterAcks = (work: () => Promise<void>): Promise<void> =>
    track(new Promise<void>((resolve) => setImmediate(resolve)).then(work));
  const clicking = new Set<string>();

  app.command(options.slashCommand ?? "/rl", async ({ command, ack, respond }) => {
    await ack();
    await afterAcks(() =>
      runSlackCommand(
        command.text ?? "",
        {
          channel: { platform: "slack", workspace: command.team_id, channel: command.channel_id },
          user: { id: command.user_id, name: command.user_name },
          kind: "typed",
          respond,
        },
        deps,
      ),
    );
  });

  app.action(/^rl_/, async ({ ack, body, action, respond }) => {
    await ack();
    await afterAcks(() => answerClick(body, action, respond));
  });

  async function answerClick(
    body: SlackActionMiddlewareArgs["body"],
    action: SlackActionMiddlewareArgs["action"],
    respond: RespondFn,
  ): Promise<void> {
    if (body.type !== "block_actions" || action.type !== "button" || !("action_id" in action)) return;
    const value = decodeButtonValue(action.value);
    if (!value) {
      log.warn("slack: a button with an unknown value was clicked", { actionId: action.action_id });
      await messenger.respond(
        respond,
        renderPlain("That button is not one I know (it may be from an older version). Type the command instead."),
      );
      return;
    }
    const channelId = body.channel?.id ?? body.container?.channel_id;
    if (!channelId) return;
    const channel: ChannelKey = {
      platform: "slack",
      workspace: body.team?.id ?? body.user.team_id ?? "unknown",
      channel: channelId,
    };
    const user = { id: body.user.id, name: body.user.username ?? body.user.name };
    if (value.kind === "page") {
      const ephemeral = body.container?.is_ephemeral === true;
      const messageTs = body.container?.message_ts ?? body.message?.ts;
      await track(
        turnSlackPage(
          { id: value.id, index: value.index, channel, ephemeral, respond, ...(messageTs ? { messageTs } : {}) },
          { services, messenger, people },
        ),
      );
      return;
    }
    if (value.kind === "answer") {
      // Every click is answered, a replay too: the prompt's record decides, once, whether anything runs.
      await track(
        answerSlackPrompt(
          { confirmation: value.confirmation, answer: value.answer },
          { channel, user, kind: "confirm", respond, fromEphemeral: body.container?.is_ephemeral === true },
          deps,
        ),
      );
      return;
    }
    // A second click while the first is still running would run the command twice.
    const key = `${body.container?.message_ts ?? ""}:${action.action_id}:${body.user.id}`;
    if (clicking.has(key)) return;
    clicking.add(key);
    try {
      await track(runSlackCommand(value.command, { channel, user, kind: "button", respond }, deps));
    } finally {
      clicking.delete(key);
    }
  }

  const chatDeps = {
    services,
    messenger,
    people,
    chat: options.chat,
    commands: options.commands,
    onAnchor: options.onAnchor,
    renderChart,
  };
  app.event("app_mention", async ({ event, body, context }) => {
    if (!event.user || event.bot_id) return;
    await track(
      answerChat(
        {
          channel: { platform: "slack", workspace: teamOf(body, event), channel: event.channel },
          userId: event.user,
          text: event.text,
          thread: event.thread_ts ?? event.ts,
          botUserId: context.botUserId,
        },
        chatDeps,
      ),
    );
  });

  app.event("message", async ({ event, body, context }) => {
    const m = event as {
      channel_type?: string;
      subtype?: string;
      bot_id?: string;
      user?: string;
      text?: string;
      ts: string;
      thread_ts?: string;
      channel: string;
    };
    // Only direct messages: in channels, a message reaches the bot as app_mention.
    if (m.channel_type !== "im" || m.subtype || m.bot_id || !m.user || m.user === context.botUserId) return;
    await track(
      answerChat(
        {
          channel: { platform: "slack", workspace: teamOf(body, event), channel: m.channel },
          userId: m.user,
          text: m.text ?? "",
          thread: m.thread_ts,
          botUserId: context.botUserId,
        },
        chatDeps,
      ),
    );
  });

  let server: Server | undefined;
  let state: "new" | "started" | "stopped" = "new";
  return {
    platform: "slack",
    threads: true,
    mode,
    async start() {
      if (state !== "new") return;
      state = "started";
      if (socketReceiver) await app.start();
      else server = (await app.start(options.host ? { port: slack.port, host: options.host } : slack.port)) as Server;
      log.info("slack connected", { mode, ...(server ? { port: portOf(server) } : {}) });
    },
    async stop() {
      if (state !== "started") {
        state = "stopped";
        return;
      }
      state = "stopped";
      // Stop taking new events first, then let the commands already running finish.
      if (socketReceiver) await socketReceiver.client.disconnect();
      else {
        server?.closeIdleConnections();
        await app.stop().catch((err: unknown) => log.warn("slack receiver stop failed", { err }));
      }
      await settle([...inFlight], STOP_GRACE_MS);
    },
    // A reply's chart follows as a PNG in the same place (needs files:write); its failure is logged, never thrown.
    async post(target, reply) {
      const channelId = target.channel.channel;
      // People's names are looked up before the post: nothing is awaited between Slack taking it and its mark as sent.
      const rendered = renderSlack(reply, { redact: services.redact, names: await people.namesIn(reply) });
      const ts = accepted(await outboxMessenger.post(channelId, rendered, target.thread), channelId);
      // Slack has no idempotency key: the caller marks the message sent the moment this returns, so nothing is awaited
      // here. The run's thread is recorded in the background (main.ts records it synchronously), the chart follows
      // next to the message (a run's chart with no run thread yet goes under the message itself), and a failure of
      // either is only logged. stop() still waits for both.
      const { anchorRunId, runId } = reply.delivery ?? {};
      if (anchorRunId) void track(recordAnchor(options.onAnchor, log, anchorRunId, target.channel, ts));
      const thread = target.thread ?? (runId ? ts : undefined);
      if (reply.chart)
        void track(
          shareChart(
            reply.chart,
            { channel: channelId, thread },
            { messenger, renderChart, redact: services.redact, log },
          ).then(() => undefined),
        );
      return { channel: target.channel, id: ts, ...(target.thread ? { thread: target.thread } : {}) };
    },
    async update(ref, reply) {
      const channelId = ref.channel.channel;
      accepted(
        await messenger.update(
          channelId,
          ref.id,
          renderSlack(reply, { redact: services.redact, names: await people.namesIn(reply) }),
        ),
        channelId,
      );
      return ref;
    },
    threadOf: threadOfMessage,
    port: () => (server ? portOf(server) : undefined),
  };
}

/** The message's ts, or an RlError("UPSTREAM") saying what Slack answered, with the outbox's verdict on it. */
function accepted(sent: SendResult, channelId: string): string {
  if (sent.ok && sent.ts) return sent.ts;
  const error = sent.ok ? "no_ts" : sent.error;
  const failure = classifySlackFailure(error, sent.ok ? undefined : sent.retryAfterSeconds);
  throw deliveryError(`Slack did not accept the message for channel ${channelId} (${error}).`, failure, {
    details: { slackError: error },
  });
}

function teamOf(body: unknown, event: unknown): string {
  const fromBody = (body as { team_id?: unknown }).team_id;
  const fromEvent = (event as { team?: unknown }).team;
  return typeof fromBody === "string" ? fromBody : typeof fromEvent === "string" ? fromEvent : "unknown";
}

function portOf(server: Server): number | undefined {
  const address = server.address();
  return typeof address === "object" && address ? address.port : undefined;
}

/** Waits for the promises, but not longer than `ms`. */
async function settle(work: Array<Promise<void>>, ms: number): Promise<void> {
  if (work.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.allSettled(work), timeout]);
  clearTimeout(timer);
}

// The Slack adapter: a Bolt app (Socket Mode with SLACK_APP_TOKEN, else HTTP) that turns /rl, clicks and mentions into commands.
import type { Server } from "node:http";
import { webApi } from "@slack/bolt";
import type { AnyCommand } from "../../commands/types.ts";
import { renderChartPng, type ChartRenderer } from "../../src/metrics/render-chart.ts";
import type { Services } from "../../src/services.ts";
import { threadOfMessage, type AnchorHandler, type ChatAdapter, type ChatHandler } from "../chat-adapter.ts";
import { createInFlightWork } from "../in-flight-work.ts";
import { createSlackApp } from "./slack-app.ts";
import { listenForChat } from "./slack-chat-events.ts";
import { createClickHandler } from "./slack-clicks.ts";
import { createSlackMessenger } from "./slack-messenger.ts";
import { createSlackPeople } from "./slack-people.ts";
import { createSlackPosts } from "./slack-posts.ts";
import { runSlackCommand, type SlackCommandDeps } from "./slack-run-command.ts";

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

/** How long stop() waits for commands in progress before closing anyway. */
const STOP_GRACE_MS = 10_000;

export async function createSlackAdapter(services: Services, options: SlackAdapterOptions = {}): Promise<SlackAdapter> {
  const { slack } = services.config;
  const { log } = services;
  const { app, mode, socketReceiver, clientOptions, requestsIdle } = await createSlackApp(services);
  const messenger = createSlackMessenger(app.client, log);
  // The outbox's posts: a 429 comes back at once with its Retry-After, so the outbox (not this client) owns the
  // wait, the message is not held in memory meanwhile, and the rest of the channel's queue waits with it.
  const outboxClient = new webApi.WebClient(slack.botToken, { ...clientOptions(), rejectRateLimitedCalls: true });
  const outboxMessenger = createSlackMessenger(outboxClient, log);
  const people = createSlackPeople(app.client, log, services.now);
  const renderChart: ChartRenderer = options.renderChart ?? ((chart) => renderChartPng(chart));
  const deps: SlackCommandDeps & { people: typeof people } = {
    services,
    messenger,
    people,
    commands: options.commands,
    onAnchor: options.onAnchor,
    renderChart,
  };
  /** Handlers are awaited by Bolt, but stop() also waits for them so the database is not closed under them. */
  const work = createInFlightWork();
  const track = (done: Promise<void>) => work.track(done);
  /**
   * After its ack, an event's work waits until no request is waiting to be acked, then for a turn of the loop of its
   * own, in arrival order: the acks of requests that arrived together all go out first (Slack wants each within 3 s),
   * and 20 answers are 20 short turns rather than one of tens of ms that holds up every timer and request meanwhile.
   * Only the starts take turns: an answer waiting on the network does not hold up the next. Tracked from the ack on,
   * so stop() waits for work that has not begun yet too.
   */
  let lastTurn: Promise<void> = Promise.resolve();
  const afterAcks = (next: () => Promise<void>): Promise<void> => {
    const turn = lastTurn.then(requestsIdle).then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    lastTurn = turn;
    return track(turn.then(next));
  };

  app.command(options.slashCommand ?? "/rl", async ({ command, ack, respond }) => {
    await ack();
    await afterAcks(async () =>
      runSlackCommand(
        command.text ?? "",
        {
          channel: { platform: "slack", workspace: command.team_id, channel: command.channel_id },
          user: await people.named({ id: command.user_id, name: command.user_name }),
          kind: "typed",
          respond,
        },
        deps,
      ),
    );
  });

  const answerClick = createClickHandler(deps, track);
  app.action(/^rl_/, async ({ ack, body, action, respond }) => {
    await ack();
    await afterAcks(() => answerClick(body, action, respond));
  });

  listenForChat(app, { ...deps, chat: options.chat }, track);
  const posts = createSlackPosts({ ...deps, outboxMessenger, track });

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
      await work.settle(STOP_GRACE_MS);
    },
    post: posts.post,
    update: posts.update,
    threadOf: threadOfMessage,
    port: () => (server ? portOf(server) : undefined),
  };
}

function portOf(server: Server): number | undefined {
  const address = server.address();
  return typeof address === "object" && address ? address.port : undefined;
}

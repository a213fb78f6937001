// The Bolt app for the Slack adapter: Socket Mode with SLACK_APP_TOKEN, else the HTTP receiver with the signing
// secret; the token checked with auth.test at start-up, so a bad one fails there and not on the first command.
import type { webApi } from "@slack/bolt";
import { App, HTTPReceiver, LogLevel, SocketModeReceiver } from "@slack/bolt";
import { oneRequestPerTurn } from "./one-request-per-turn.ts";
import { RlError } from "../../src/errors.ts";
import type { Services } from "../../src/services.ts";
import { slackErrorCode } from "./slack-error-code.ts";
import { createSlackLogger } from "./slack-logger.ts";

/** Retry network failures and 5xx a few times; 429s wait for Retry-After first (the WebClient does that, except for the outbox's client). */
const RETRY: webApi.RetryOptions = { retries: 4, factor: 2, minTimeout: 500, maxTimeout: 10_000 };
const REQUEST_TIMEOUT_MS = 20_000;

export interface SlackApp {
  app: App;
  mode: "socket" | "http";
  /** Set in Socket Mode: stop() disconnects it. */
  socketReceiver?: SocketModeReceiver;
  /** A fresh copy of the Web API clients' options (Bolt and the Socket Mode client write into the one they get). */
  clientOptions(): webApi.WebClientOptions;
  /** Resolves once no HTTP request waits for its turn to enter Bolt (see one-request-per-turn.ts). */
  requestsIdle(): Promise<void>;
}

export async function createSlackApp(services: Services): Promise<SlackApp> {
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
  let receiver: SocketModeReceiver | HTTPReceiver | undefined = socketReceiver;
  let requestsIdle = () => Promise.resolve();
  if (!receiver) {
    const httpReceiver = new HTTPReceiver({ signingSecret: slack.signingSecret ?? "", port: slack.port, logger });
    // HTTPReceiver's server calls its requestListener property for each request (read at the call).
    const paced = oneRequestPerTurn(httpReceiver.requestListener);
    httpReceiver.requestListener = paced.listener;
    requestsIdle = paced.idle;
    receiver = httpReceiver;
  }
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
  return { app, mode, socketReceiver, clientOptions, requestsIdle };
}

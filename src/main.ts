// Wiring as a factory: the data folder's lease -> config -> core services -> adapters; shuts everything down in order.
// The bot (src/cli.ts) and the tests call the same createBot. The platforms' adapters (Bolt, discord.js) and the chat
// handler (the LLM client) are imported only when configured or started, so a bot with one platform never loads the
// other's SDK.
import type { Readable, Writable } from "node:stream";
import type { AnchorHandler, ChatAdapter, ChatHandler } from "../adapters/chat-adapter.ts";
import { serveCliSocket } from "../adapters/console/cli-socket.ts";
import { CONSOLE_CHANNEL, createConsoleAdapter, type ConsoleAdapter } from "../adapters/console/console.ts";
import { createNoticesFilePoster } from "../adapters/console/notices-file.ts";
import type { DiscordAdapter, DiscordAdapterOptions } from "../adapters/discord/discord.ts";
import type { SlackAdapter, SlackAdapterOptions } from "../adapters/slack/slack.ts";
import { channelLabel, type ChannelKey } from "../db/channel-key.ts";
import { scheduleDailyBackups } from "../db/daily-backups.ts";
import { ACTIVE_STATUSES } from "../db/runs.ts";
import type { Config } from "./config.ts";
import type { RlError } from "./errors.ts";
import { acquireLease, type Lease } from "./lease/acquire-lease.ts";
import { wideModeWarnings } from "./lease/wide-modes.ts";
import { watchIdle } from "./lease/idle-exit.ts";
import type { LeaseHolder } from "./lease/lease-holder.ts";
import { acquireLeaseTakingOver } from "./lease/take-over-lease.ts";
import { createServices, type ServiceOptions, type Services } from "./services.ts";
import { delay } from "./training/wait-until.ts";

export interface BotDeps {
  /**
   * The background supervisor `rl-chatops exec` starts when no bot runs: the same services and exec socket, no chat
   * platform and no console (it gives the folder up to a bot a person starts), gone once idle for RL_IDLE_EXIT_MINUTES.
   */
  background?: boolean;
  /** Start the terminal console even when platform tokens are set (without any, it always starts). */
  console?: boolean;
  /** The console's streams (default: stdin and stdout). */
  consoleIo?: { input?: Readable; output?: Writable };
  /** The core services' clock, logger, fetch and schedules (default: the real ones). */
  services?: ServiceOptions;
  /** Answers plain-language messages instead of the handler built from the LLM settings. */
  chat?: ChatHandler;
  /** Hears each run's thread once the bot has recorded it. */
  onAnchor?: AnchorHandler;
  /** Adapter settings beyond the configuration (the HTTP receiver's interface, a command list, a chart renderer). */
  slack?: Omit<SlackAdapterOptions, "chat" | "onAnchor">;
  discord?: Omit<DiscordAdapterOptions, "chat" | "onAnchor">;
}

export interface Bot {
  services: Services;
  /** Every platform the bot serves, console included, in the order they started. */
  adapters: ChatAdapter[];
  slack?: SlackAdapter;
  discord?: DiscordAdapter;
  console?: ConsoleAdapter;
  /** Resolves when the bot has stopped (console closed, a signal, or its database file gone). */
  done: Promise<void>;
  /** Why the bot stopped by itself: its database file was deleted or replaced while it ran. */
  readonly fault: RlError | undefined;
  /** The background supervisor this bot took the data folder over from. */
  tookOverFrom?: LeaseHolder;
  stop(): Promise<void>;
}

/** The bot while it starts: what it serves so far, and how it stops. */
type BotSoFar = Omit<Bot, "done" | "stop" | "fault"> & { shutdown: Shutdown };

/** How often the bot looks at its database file between writes (each write looks too). */
const DB_CHECK_MS = 1000;

/** How long the background supervisor waits for the first command, the one it was started for. */
const FIRST_COMMAND_WAIT_MS = 30_000;

/** How long telling a platform that the database is gone may hold up the bot's stop. */
const TELL_TIMEOUT_MS = 5000;

/**
 * The console, and each channel with a live run (which keeps training, unwatched until the bot starts again), are told
 * directly: the outbox is in the database that is gone. Where the run's channel is, is still readable from the old file.
 */
async function tellDatabaseGone(bot: BotSoFar, fault: RlError): Promise<void> {
  const { services } = bot;
  const live = (() => {
    try {
      return services.dbWatch?.readStill(() => services.runs.listByStatus(["queued", "starting", "running"])) ?? [];
    } catch {
      return [];
    }
  })();
  const targets = new Map(live.map((run) => [channelLabel(run.channel), run.channel]));
  if (bot.console) targets.set(channelLabel(CONSOLE_CHANNEL), CONSOLE_CHANNEL);
  const text = `⚠️ ${fault.message}`;
  await Promise.all(
    [...targets.values()].map(async (channel) => {
      const adapter = bot.adapters.find((a) => a.platform === channel.platform);
      if (!adapter) return;
      const told = new AbortController();
      try {
        await Promise.race([adapter.post({ channel }, { text }), delay(TELL_TIMEOUT_MS, told.signal)]);
      } catch (err) {
        services.log.warn("could not say that the database file is gone", { channel, err });
      } finally {
        told.abort();
      }
    }),
  );
}

/** How the bot stops: the steps each start-up stage registers, run newest first, then the core and the lease. */
interface Shutdown {
  stop(): Promise<void>;
  /** Registers a step; the steps run newest first. */
  onStop(step: () => Promise<void>): void;
  done: Promise<void>;
}

/** Before anything opens the database: a second bot on the same folder would fight the first over its runs. */
async function takeDataFolder(config: Config, background: boolean): Promise<{ lease: Lease; from?: LeaseHolder }> {
  if (background) return { lease: acquireLease(config.dataDir, "background") };
  return acquireLeaseTakingOver(config.dataDir, config.stopGraceMs + 60_000);
}

function openServices(config: Config, lease: Lease, options?: ServiceOptions): Services {
  try {
    return createServices(config, options);
  } catch (err) {
    lease.release();
    throw err;
  }
}

// Steps run newest first: inputs close and their commands in flight finish, then the core, the database, the lease.
// The starts in progress are stopped first, in the same tick as the first input closes: a command in flight that is
// starting a run would otherwise hold the shutdown until its components are up (or for the whole readiness timeout of
// a stuck one), and then leave the run behind.
function createShutdown(services: Services, lease: Lease): Shutdown {
  const steps: Array<() => Promise<void>> = [];
  const logged = (err: unknown) => services.log.error("shutdown step failed", { err });
  let stopping: Promise<void> | undefined;
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  const stop = () =>
    (stopping ??= (async () => {
      const starts = services.manager.stopStarts().catch(logged);
      for (const step of steps.reverse()) await step().catch(logged);
      await starts;
      await services.close().catch(logged);
      lease.release();
      resolveDone();
    })());
  return { stop, done, onStop: (step) => void steps.push(step) };
}

/** A file deleted or replaced under the bot: its statements already refuse; it says so once and stops. */
function watchDatabase(config: Config, bot: BotSoFar, shutdown: Shutdown): () => RlError | undefined {
  const { services } = bot;
  let fault: RlError | undefined;
  const watch = services.dbWatch;
  if (watch) {
    const timer = setInterval(() => watch.check(), DB_CHECK_MS);
    shutdown.onStop(async () => clearInterval(timer));
    watch.onFault((found) => {
      fault = found;
      services.log.error(found.message, { file: config.databasePath });
      void tellDatabaseGone(bot, found).then(shutdown.stop);
    });
  }
  return () => fault;
}

/** Notices and digests go out through each platform's own post, once it is up. */
function serve(bot: BotSoFar, adapter: ChatAdapter): void {
  const { services } = bot;
  bot.adapters.push(adapter);
  services.outboxSender.register(
    adapter.platform,
    // An edit replaces the message in place (a decided approval request); the console prints it again.
    (target, reply, delivery) =>
      delivery.edit
        ? adapter.update(
            { channel: target.channel, id: delivery.edit, ...(target.thread ? { thread: target.thread } : {}) },
            reply,
          )
        : adapter.post(target, reply, delivery),
    { threads: adapter.threads },
  );
  services.editSender.register(adapter.platform, (ref, reply) => adapter.update(ref, reply));
}

/** Runs left by the last process are settled before any command is answered. */
async function recoverWork(services: Services): Promise<void> {
  await services.manager.recover();
  const interrupted = services.inferenceTests.failInterrupted();
  if (interrupted > 0) services.log.warn("inference tests interrupted by the restart", { count: interrupted });
}

/** The exec socket, and for the background supervisor the idle watch that lets go of the folder. */
async function serveExec(config: Config, services: Services, lease: Lease, shutdown: Shutdown, background: boolean) {
  const state: { answered: boolean; idle?: { check(): void } } = { answered: false };
  const socket = await serveCliSocket(services, lease.socketPath, {
    onStopRequest: () => void shutdown.stop(),
    onAnswered: () => {
      state.answered = true;
      state.idle?.check();
    },
  });
  shutdown.onStop(() => socket.stop());
  // Clients reading the pid file waited while it said "starting": the socket accepts now.
  lease.markReady();
  if (background) state.idle = watchBackgroundIdle(config, services, shutdown, () => state.answered, socket);
}

/**
 * The background supervisor lets go of the folder once idle: kept while runs are live or queued, a command is answered
 * or a console notice is still to be written. It is started for an exec's command: it waits for that first one
 * whatever the idle time.
 */
function watchBackgroundIdle(
  config: Config,
  services: Services,
  shutdown: Shutdown,
  answered: () => boolean,
  socket: { inFlight(): number },
) {
  const startedAt = Date.now();
  const busy = () =>
    (!answered() && Date.now() - startedAt < FIRST_COMMAND_WAIT_MS) ||
    socket.inFlight() > 0 ||
    services.runs.countByStatus(ACTIVE_STATUSES) > 0 ||
    services.outbox.due(services.now(), 200).some((m) => m.target.channel.platform === "console");
  const watch = watchIdle({
    idleMs: config.idleExitMs,
    isBusy: () => !services.dbWatch?.fault && busy(),
    onIdle: () => {
      services.log.info("idle: the background supervisor lets go of the data folder", {
        idleMinutes: config.idleExitMs / 60_000,
      });
      void shutdown.stop();
    },
  });
  shutdown.onStop(async () => watch.stop());
  return watch;
}

function scheduleBackups(config: Config, services: Services, shutdown: Shutdown): void {
  const backups = scheduleDailyBackups({
    db: services.db,
    dir: config.backupsDir,
    now: services.now,
    onError: (err) => services.log.error("the daily database backup failed", { dir: config.backupsDir, err }),
  });
  shutdown.onStop(() => backups.stop());
}

/**
 * Slack and Discord, each only when configured (and never for the background supervisor: a second Socket Mode
 * connection would split the Slack app's events between it and the bot). A run's message (its start reply) becomes
 * the thread its later notices go to.
 */
async function startPlatforms(bot: BotSoFar, platforms: string[], chat: ChatHandler | undefined, deps: BotDeps) {
  const { services } = bot;
  const onAnchor: AnchorHandler = async (runId, channel, thread, message) => {
    try {
      services.runs.update(runId, { thread });
      // A sweep's message (its first run's) is edited as the runs move.
      if (message) await services.sweepBoard.anchored(runId, channel, message);
    } finally {
      await deps.onAnchor?.(runId, channel, thread, message);
    }
  };
  if (platforms.includes("slack")) {
    const { createSlackAdapter } = await import("../adapters/slack/slack.ts");
    bot.slack = await createSlackAdapter(services, { ...deps.slack, chat, onAnchor });
  }
  if (platforms.includes("discord")) {
    const { createDiscordAdapter } = await import("../adapters/discord/discord.ts");
    const runIds = (channel: ChannelKey) => services.runs.listByChannel(channel, 25).map((run) => run.id);
    bot.discord = createDiscordAdapter(services, { runIds, ...deps.discord, chat, onAnchor });
  }
  for (const adapter of [bot.slack, bot.discord]) {
    if (!adapter) continue;
    bot.shutdown.onStop(() => adapter.stop());
    await adapter.start();
    serve(bot, adapter);
  }
}

/**
 * The terminal console, when asked for or when no platform is configured. Without it, console channels (exec's, by
 * default) have no console to show their notices: they are kept in a file instead.
 */
function createTerminal(
  config: Config,
  bot: BotSoFar,
  chat: ChatHandler | undefined,
  deps: BotDeps,
  useConsole: boolean,
) {
  const { services } = bot;
  if (!useConsole) {
    const poster = createNoticesFilePoster(config.noticesPath, services.redact, services.now);
    services.outboxSender.register("console", poster, { threads: false });
    return undefined;
  }
  const terminal = createConsoleAdapter(services, { chat, ...deps.consoleIo });
  bot.console = terminal;
  serve(bot, terminal);
  return terminal;
}

/** On a signal the console stops reading and its command in flight finishes before the database closes. */
async function startTerminal(terminal: ConsoleAdapter, shutdown: Shutdown): Promise<void> {
  shutdown.onStop(() => terminal.stop());
  await terminal.start();
  void terminal.done.then(shutdown.stop);
}

export async function createBot(config: Config, deps: BotDeps = {}): Promise<Bot> {
  const background = deps.background === true;
  const { lease, from: tookOverFrom } = await takeDataFolder(config, background);
  const services = openServices(config, lease, deps.services);
  // Said, never done: the bot chmod-s nothing it did not make.
  for (const line of wideModeWarnings(config)) services.log.warn(line);
  const shutdown = createShutdown(services, lease);
  const platforms = background ? [] : [config.slack.botToken && "slack", config.discord.token && "discord"];
  const served = platforms.filter((p): p is string => Boolean(p));
  const useConsole = !background && (deps.console === true || served.length === 0);
  const bot: BotSoFar = { services, adapters: [], shutdown };
  const fault = watchDatabase(config, bot, shutdown);
  // Plain-language messages come only from a platform or the console, which the background supervisor has none of.
  let chat: ChatHandler | undefined;
  try {
    if (tookOverFrom)
      services.log.info("took the data folder over from the background supervisor", {
        pid: tookOverFrom.pid,
      });
    if (!background)
      chat = deps.chat ?? (await import("../adapters/chat/create-chat-handler.ts")).createChatHandler(services);
    await recoverWork(services);
    await serveExec(config, services, lease, shutdown, background);
    scheduleBackups(config, services, shutdown);
    await startPlatforms(bot, served, chat, deps);
  } catch (err) {
    // A bad token or a busy port: close the database and let go of the folder before failing start-up.
    await shutdown.stop();
    throw err;
  }
  // Found gone while the platforms connected: the bot is already stopping and serves nothing.
  const found = fault();
  if (found) {
    await shutdown.stop();
    throw found;
  }
  const terminal = createTerminal(config, bot, chat, deps, useConsole);
  services.start();
  if (terminal) await startTerminal(terminal, shutdown);
  services.log.info("rl-chatops started", {
    platforms: served,
    console: useConsole,
    background,
    trainingRoot: config.trainingRoot,
  });
  const { shutdown: _, ...shown } = bot;
  return {
    ...shown,
    done: shutdown.done,
    tookOverFrom,
    stop: shutdown.stop,
    get fault() {
      return fault();
    },
  };
}

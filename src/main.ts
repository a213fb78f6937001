// Wiring: the data folder's lease -> config -> core services -> adapters; shuts everything down cleanly on SIGINT/SIGTERM.
// The platforms' adapters (Bolt, discord.js) and the chat handler (the LLM client) are imported only when configured
// or started, so a bot with one platform never loads the other's SDK.
import { serveCliSocket } from "../adapters/console/cli-socket.ts";
import type { ChatAdapter, ChatHandler } from "../adapters/chat-adapter.ts";
import { createConsoleAdapter } from "../adapters/console/console.ts";
import type { ChannelKey } from "../db/channel-key.ts";
import { scheduleDailyBackups } from "../db/daily-backups.ts";
import type { Config } from "./config.ts";
import { acquireLease } from "./lease/acquire-lease.ts";
import { createServices, type Services } from "./services.ts";

export interface BotOptions {
  /** Start the terminal console even when platform tokens are set. */
  console?: boolean;
}

export interface Bot {
  services: Services;
  /** Resolves when the bot has stopped (console closed, or a signal). */
  done: Promise<void>;
  stop(): Promise<void>;
}

export async function startBot(config: Config, options: BotOptions = {}): Promise<Bot> {
  // Before anything opens the database: a second bot on the same folder would fight the first over its runs.
  const lease = acquireLease(config.dataDir, "bot");
  let services: Services;
  try {
    services = createServices(config);
  } catch (err) {
    lease.release();
    throw err;
  }
  const stoppers: Array<() => Promise<void>> = [];
  const platforms = [config.slack.botToken && "slack", config.discord.token && "discord"].filter(Boolean);
  const useConsole = options.console === true || platforms.length === 0;

  let stopping: Promise<void> | undefined;
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  // Stoppers run newest first: inputs close and their commands in flight finish, then the core, the database, the lease.
  const stop = () =>
    (stopping ??= (async () => {
      for (const s of stoppers.reverse()) {
        await s().catch((err: unknown) => services.log.error("shutdown step failed", { err }));
      }
      await services.close().catch((err: unknown) => services.log.error("shutdown step failed", { err }));
      lease.release();
      resolveDone();
    })());

  let chat: ChatHandler;
  try {
    const { createChatHandler } = await import("./chat/create-chat-handler.ts");
    chat = createChatHandler(services);
    await services.manager.recover();
    const interrupted = services.inferenceTests.failInterrupted();
    if (interrupted > 0) services.log.warn("inference tests interrupted by the restart", { count: interrupted });
    const socket = await serveCliSocket(services, lease.socketPath);
    stoppers.push(() => socket.stop());
    const backups = scheduleDailyBackups({
      db: services.db,
      dir: config.backupsDir,
      now: services.now,
      onError: (err) => services.log.error("the daily database backup failed", { dir: config.backupsDir, err }),
    });
    stoppers.push(() => backups.stop());

    // A run's message (its start reply) becomes the thread its later notices go to.
    const onAnchor = (runId: string, _channel: ChannelKey, thread: string) => {
      services.runs.update(runId, { thread });
    };
    const adapters: ChatAdapter[] = [];
    if (config.slack.botToken) {
      const { createSlackAdapter } = await import("../adapters/slack/slack.ts");
      adapters.push(await createSlackAdapter(services, { chat, onAnchor }));
    }
    if (config.discord.token) {
      const { createDiscordAdapter } = await import("../adapters/discord/discord.ts");
      const runIds = (channel: ChannelKey) => services.runs.listByChannel(channel, 25).map((run) => run.id);
      adapters.push(createDiscordAdapter(services, { chat, runIds, onAnchor }));
    }
    for (const adapter of adapters) {
      stoppers.push(() => adapter.stop());
      await adapter.start();
      services.digests.registerPoster(adapter.platform, (target, reply, delivery) => adapter.post(target, reply, delivery), { threads: adapter.threads });
    }
  } catch (err) {
    // A bad token or a busy port: close the database and let go of the folder before failing start-up.
    await stop();
    throw err;
  }

  const terminal = useConsole ? createConsoleAdapter(services, { chat }) : undefined;
  if (terminal) services.digests.registerPoster(terminal.platform, (target, reply) => terminal.post(target, reply), { threads: terminal.threads });
  services.digests.start();

  if (terminal) {
    // On a signal the console stops reading and its command in flight finishes before the database closes.
    stoppers.push(() => terminal.stop());
    await terminal.start();
    void terminal.done.then(stop);
  }
  services.log.info("rl-chatops started", { platforms, console: useConsole, trainingRoot: config.trainingRoot });
  return { services, done, stop };
}

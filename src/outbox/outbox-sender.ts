// Delivers the outbox: oldest first, through each platform's poster, paced per channel, on a timer and when kicked.
import type { OutboxRepo } from "../../db/outbox.ts";
import type { Logger } from "../log.ts";
import { createChannelPacing } from "./channel-pacing.ts";
import type { Poster } from "./poster.ts";
import { createFailureRecorder, type RecordFailureDeps } from "./record-failure.ts";
import { sendMessage } from "./send-message.ts";
import { waitsForThread } from "./thread-wait.ts";

export interface OutboxSenderOptions {
  outbox: OutboxRepo;
  log: Logger;
  now: () => number;
  /** The platforms' own pace: Slack allows about one post a second per channel. */
  perChannelGapMs?: number;
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  maxAttempts?: number;
  /** The run's thread now: a start reply posted after the notice was queued becomes the run's thread. */
  currentThread?: (runId: string) => string | undefined;
  /** How long a run's notice waits for the run's reply to be posted (and become its thread) before going to the channel. */
  threadWaitMs?: number;
  /** Where a run's refused DM or named-channel message goes instead (the run's channel and thread). */
  fallbackOf?: RecordFailureDeps["fallbackOf"];
}

export function createOutboxSender(options: OutboxSenderOptions) {
  const { outbox, log, now, currentThread } = options;
  const pacing = createChannelPacing({ gapMs: options.perChannelGapMs ?? 1100, now });
  const recordFailure = createFailureRecorder({
    outbox,
    log,
    now,
    pacing,
    fallbackOf: options.fallbackOf,
    retry: {
      baseBackoffMs: options.baseBackoffMs ?? 2000,
      maxBackoffMs: options.maxBackoffMs ?? 10 * 60_000,
      maxAttempts: options.maxAttempts ?? 12,
    },
  });
  const threadWait = { now, currentThread, waitMs: options.threadWaitMs ?? 5000 };
  const posters = new Map<string, Poster>();
  const threadless = new Set<string>();
  let draining: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;
  // A message was left for a later pass (its channel's pace, its thread): the timer's next tick makes one.
  let again = false;
  // After stop() nothing schedules a pass: the database may be closed next.
  let stopped = false;

  async function drainOnce(): Promise<number> {
    let sent = 0;
    const claim = pacing.startPass();
    for (const message of outbox.due(now(), 200)) {
      const platform = message.target.channel.platform;
      const poster = posters.get(platform);
      if (!poster) continue;
      if (waitsForThread(message, !threadless.has(platform), threadWait) || !claim(message.target.channel)) {
        again = true;
        continue;
      }
      await sendMessage(message, poster, { outbox, now, currentThread, recordFailure });
      sent++;
    }
    return sent;
  }

  /** Send what is due now; concurrent calls share one pass. */
  function drain(): Promise<number> {
    if (stopped) return draining ?? Promise.resolve(0);
    draining ??= drainOnce().finally(() => {
      draining = undefined;
    });
    return draining;
  }

  /** Ask for a pass soon (after a notice is queued). */
  function kick(): void {
    if (stopped) return;
    setImmediate(() => {
      if (!stopped) void drain().catch((err: unknown) => log.error("outbox drain failed", { err }));
    });
  }

  return {
    /** `threads: false` for a platform without threads (the console): its notices never wait for one. */
    register(platform: string, poster: Poster, opts: { threads?: boolean } = {}): () => void {
      posters.set(platform, poster);
      if (opts.threads === false) threadless.add(platform);
      void drain();
      return () => posters.delete(platform);
    },
    drain,
    kick,
    /** Passes on a timer while anything is pending, and one straight away for what waited while the bot was down. */
    start(intervalMs = 1000): void {
      stopped = false;
      timer ??= setInterval(() => {
        if (outbox.pending() === 0 && !again) return;
        again = false;
        void drain().catch((err: unknown) => log.error("outbox drain failed", { err }));
      }, intervalMs);
      timer.unref();
      kick();
    },
    /** No more passes; resolves when the one in flight has finished. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await draining?.catch(() => undefined);
    },
  };
}

export type OutboxSender = ReturnType<typeof createOutboxSender>;

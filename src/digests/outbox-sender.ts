// Delivers the outbox: oldest first, at most one post a second per channel; waits out 429s, retries other failures with backoff, stops on refusals.
import type { ChannelKey } from "../../db/channel-key.ts";
import { channelLabel } from "../../db/channel-key.ts";
import type { OutboxMessage, OutboxRepo } from "../../db/outbox.ts";
import { asRlError, type RlError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { Reply } from "../reply.ts";
import { crashPoint } from "../process/crash-point.ts";
import { deliveryFailureOf, describeUndeliverable } from "./delivery-failure.ts";

/** What the outbox tells a poster about the message: `key` is its dedupe key, stable across restarts. */
export interface Delivery {
  key: string;
}

/**
 * Posts one message; rejects with the platform's verdict (delivery-failure.ts) when the platform refuses it.
 * Resolves as soon as the platform has accepted it: the outbox marks it sent next, and anything awaited before
 * that widens the window in which a crash repeats the post.
 */
export type Poster = (
  target: { channel: ChannelKey; thread?: string },
  reply: Reply,
  delivery: Delivery,
) => Promise<{ id?: string }>;

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
}

export function createOutboxSender(options: OutboxSenderOptions) {
  const { outbox, log, now } = options;
  const gap = options.perChannelGapMs ?? 1100;
  const baseBackoff = options.baseBackoffMs ?? 2000;
  const maxBackoff = options.maxBackoffMs ?? 10 * 60_000;
  const maxAttempts = options.maxAttempts ?? 12;
  const threadWait = options.threadWaitMs ?? 5000;
  const posters = new Map<string, Poster>();
  const threadless = new Set<string>();
  const lastPost = new Map<string, number>();
  /** Channels a platform rate-limited, and until when. */
  const heldUntil = new Map<string, number>();
  let draining: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let again = false;
  // After stop() nothing schedules a pass: the database may be closed next.
  let stopped = false;

  async function send(message: OutboxMessage, poster: Poster): Promise<void> {
    let id: string | undefined;
    try {
      const thread = (message.runId && options.currentThread?.(message.runId)) || message.target.thread;
      // The key lets a platform that can deduplicate (Discord's nonce) recognise a repeat of this message.
      ({ id } = await poster({ channel: message.target.channel, thread }, message.reply as Reply, {
        key: message.dedupeKey,
      }));
    } catch (thrown) {
      failed(message, asRlError(thrown));
      return;
    }
    // Nothing is awaited between the platform's answer and the mark. A crash in this window posts the message again
    // after the restart: Discord answers that repeat with the first message (its nonce), Slack posts it twice.
    crashPoint("posted");
    outbox.markSent(message.id, id, now());
  }

  function failed(message: OutboxMessage, err: RlError): void {
    const failure = deliveryFailureOf(err);
    const context = { id: message.id, kind: message.kind, runId: message.runId, channel: message.target.channel };
    if ("permanent" in failure) {
      // Never tried again, so this is said once; /rl status of the run shows it too.
      log.error("message cannot be delivered; not trying again", {
        ...context,
        reason: failure.permanent,
        hint: failure.hint,
        err: err.message,
      });
      outbox.markUndeliverable(message.id, describeUndeliverable(failure), err.message);
      return;
    }
    if ("retryAfterMs" in failure) {
      // The platform said when: the whole channel waits that long, and a 429 does not count as a failed attempt.
      const at = now() + failure.retryAfterMs;
      heldUntil.set(channelLabel(message.target.channel), at);
      log.warn("rate limited; will retry after the platform's Retry-After", {
        ...context,
        retryInMs: failure.retryAfterMs,
      });
      outbox.markRateLimited(message.id, err.message, at);
      return;
    }
    const attempts = message.attempts + 1;
    if (attempts >= maxAttempts) {
      log.error("giving up on a message", { ...context, err: err.message });
      outbox.markDead(message.id, err.message);
      return;
    }
    const backoff = Math.min(maxBackoff, baseBackoff * 2 ** (attempts - 1));
    log.warn("message not delivered; will retry", { id: message.id, attempts, retryInMs: backoff, err: err.message });
    outbox.markRetry(message.id, err.message, now() + backoff);
  }

  async function drainOnce(): Promise<number> {
    let sent = 0;
    const busy = new Set<string>();
    for (const message of outbox.due(now(), 200)) {
      const poster = posters.get(message.target.channel.platform);
      if (!poster) continue;
      // A run's first notice is queued while its start reply is still being posted: give that reply a moment
      // to become the run's thread, so the notice lands under it rather than at the top of the channel.
      const awaitingThread =
        !threadless.has(message.target.channel.platform) &&
        message.runId !== undefined &&
        !message.target.thread &&
        !options.currentThread?.(message.runId);
      if (awaitingThread && options.currentThread && now() - message.createdAt < threadWait) {
        again = true;
        continue;
      }
      const key = channelLabel(message.target.channel);
      // One message per channel per pass, in order, spaced by the platform's pace.
      if (busy.has(key) || now() - (lastPost.get(key) ?? 0) < gap || (heldUntil.get(key) ?? 0) > now()) {
        busy.add(key);
        again = true;
        continue;
      }
      busy.add(key);
      lastPost.set(key, now());
      await send(message, poster);
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

  return {
    /** `threads: false` for a platform without threads (the console): its notices never wait for one. */
    register(platform: string, poster: Poster, opts: { threads?: boolean } = {}): () => void {
      posters.set(platform, poster);
      if (opts.threads === false) threadless.add(platform);
      void drain();
      return () => posters.delete(platform);
    },
    drain,
    /** Ask for a pass soon (after a notice is queued). */
    kick(): void {
      if (stopped) return;
      setImmediate(() => {
        if (!stopped) void drain().catch((err: unknown) => log.error("outbox drain failed", { err }));
      });
    },
    start(intervalMs = 1000): void {
      stopped = false;
      timer ??= setInterval(() => {
        if (outbox.pending() === 0 && !again) return;
        again = false;
        void drain().catch((err: unknown) => log.error("outbox drain failed", { err }));
      }, intervalMs);
      timer.unref();
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

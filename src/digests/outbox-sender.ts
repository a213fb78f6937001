// Delivers the outbox: oldest first, at most one post a second per channel, retries with backoff, once each.
import type { ChannelKey } from "../../db/channel-key.ts";
import { channelLabel } from "../../db/channel-key.ts";
import type { OutboxMessage, OutboxRepo } from "../../db/outbox.ts";
import { asRlError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { Reply } from "../reply.ts";

export type Poster = (target: { channel: ChannelKey; thread?: string }, reply: Reply) => Promise<{ id?: string }>;

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
}

export function createOutboxSender(options: OutboxSenderOptions) {
  const { outbox, log, now } = options;
  const gap = options.perChannelGapMs ?? 1100;
  const baseBackoff = options.baseBackoffMs ?? 2000;
  const maxBackoff = options.maxBackoffMs ?? 10 * 60_000;
  const maxAttempts = options.maxAttempts ?? 12;
  const posters = new Map<string, Poster>();
  const lastPost = new Map<string, number>();
  let draining: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let again = false;

  async function send(message: OutboxMessage, poster: Poster): Promise<void> {
    try {
      const thread = (message.runId && options.currentThread?.(message.runId)) || message.target.thread;
      const { id } = await poster({ channel: message.target.channel, thread }, message.reply as Reply);
      outbox.markSent(message.id, id, now());
    } catch (thrown) {
      const err = asRlError(thrown);
      const attempts = message.attempts + 1;
      if (attempts >= maxAttempts) {
        log.error("giving up on a message", { id: message.id, kind: message.kind, channel: message.target.channel, err: err.message });
        outbox.markDead(message.id, err.message);
        return;
      }
      const retryAfter = typeof err.details.retryAfterMs === "number" ? err.details.retryAfterMs : 0;
      const backoff = Math.max(retryAfter, Math.min(maxBackoff, baseBackoff * 2 ** (attempts - 1)));
      log.warn("message not delivered; will retry", { id: message.id, attempts, retryInMs: backoff, err: err.message });
      outbox.markRetry(message.id, err.message, now() + backoff);
    }
  }

  async function drainOnce(): Promise<number> {
    let sent = 0;
    const busy = new Set<string>();
    for (const message of outbox.due(now(), 200)) {
      const poster = posters.get(message.target.channel.platform);
      if (!poster) continue;
      const key = channelLabel(message.target.channel);
      // One message per channel per pass, in order, spaced by the platform's pace.
      if (busy.has(key) || now() - (lastPost.get(key) ?? 0) < gap) {
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
    draining ??= drainOnce().finally(() => {
      draining = undefined;
    });
    return draining;
  }

  return {
    register(platform: string, poster: Poster): () => void {
      posters.set(platform, poster);
      void drain();
      return () => posters.delete(platform);
    },
    drain,
    /** Ask for a pass soon (after a notice is queued). */
    kick(): void {
      setImmediate(() => void drain().catch((err: unknown) => log.error("outbox drain failed", { err })));
    },
    start(intervalMs = 1000): void {
      timer ??= setInterval(() => {
        if (outbox.pending() === 0 && !again) return;
        again = false;
        void drain().catch((err: unknown) => log.error("outbox drain failed", { err }));
      }, intervalMs);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

export type OutboxSender = ReturnType<typeof createOutboxSender>;

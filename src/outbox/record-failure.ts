// What a post that did not go through leaves in the outbox: undeliverable for good, held for Retry-After, or retried.
import { dmRecipient, type OutboxMessage, type OutboxRepo } from "../../db/outbox.ts";
import { personRef } from "../reply.ts";
import type { RlError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { ChannelPacing } from "./channel-pacing.ts";
import { deliveryFailureOf, describeUndeliverable } from "./delivery-failure.ts";
import { retryDelayAfter, type RetryPolicy } from "./retry-backoff.ts";

export interface RecordFailureDeps {
  outbox: OutboxRepo;
  log: Logger;
  now: () => number;
  pacing: Pick<ChannelPacing, "hold">;
  retry: RetryPolicy;
  /** Where a run's refused routed message (a DM, another channel) goes instead: the run's channel and thread. */
  fallbackOf?: (runId: string) => { channel: ChannelKey; thread?: string } | undefined;
}

export function createFailureRecorder(deps: RecordFailureDeps) {
  const { outbox, log, now } = deps;
  /** A refused DM or named channel still reaches the run's thread, once (its own key), saying where it was meant to go. */
  const fallBack = (message: OutboxMessage, reason: string): void => {
    const target = message.route && message.runId ? deps.fallbackOf?.(message.runId) : undefined;
    if (!target) return;
    const meant = dmRecipient(message.target.channel.channel);
    const note = { label: "Meant for", value: `${meant ? personRef(meant) : "another channel"} (refused: ${reason})` };
    const reply = { ...message.reply, fields: [...(message.reply.fields ?? []), note] };
    const fallback = { dedupeKey: `${message.dedupeKey}:fallback`, target, kind: message.kind, runId: message.runId };
    outbox.enqueue({ ...fallback, reply }, now());
  };
  return function recordFailure(message: OutboxMessage, err: RlError): void {
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
      fallBack(message, failure.permanent);
      return;
    }
    if ("retryAfterMs" in failure) {
      // The whole channel waits as long as the platform said, and a 429 does not count as a failed attempt.
      const at = now() + failure.retryAfterMs;
      deps.pacing.hold(message.target.channel, at);
      log.warn("rate limited; will retry after the platform's Retry-After", {
        ...context,
        retryInMs: failure.retryAfterMs,
      });
      outbox.markRateLimited(message.id, err.message, at);
      return;
    }
    const attempts = message.attempts + 1;
    const backoff = retryDelayAfter(attempts, deps.retry);
    if (backoff === undefined) {
      log.error("giving up on a message", { ...context, err: err.message });
      outbox.markDead(message.id, err.message);
      return;
    }
    log.warn("message not delivered; will retry", { id: message.id, attempts, retryInMs: backoff, err: err.message });
    outbox.markRetry(message.id, err.message, now() + backoff);
  };
}

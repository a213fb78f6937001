// Posts one outbox message and marks it sent, or hands the failure on to be recorded.
import type { OutboxMessage, OutboxRepo } from "../../db/outbox.ts";
import { asRlError, type RlError } from "../errors.ts";
import { crashPoint } from "../process/crash-point.ts";
import type { Poster } from "./poster.ts";

export interface SendMessageDeps {
  outbox: OutboxRepo;
  now: () => number;
  /** The run's thread now: a start reply posted after the notice was queued becomes the run's thread. */
  currentThread?: (runId: string) => string | undefined;
  recordFailure: (message: OutboxMessage, err: RlError) => void;
}

export async function sendMessage(message: OutboxMessage, poster: Poster, deps: SendMessageDeps): Promise<void> {
  let id: string | undefined;
  try {
    // A routed message (/rl notify: the channel, another channel, a DM) is not the run's thread's.
    const ownThread = message.runId && !message.route ? deps.currentThread?.(message.runId) : undefined;
    const thread = ownThread || message.target.thread;
    // The key lets a platform that can deduplicate (Discord's nonce) recognise a repeat of this message.
    ({ id } = await poster({ channel: message.target.channel, thread }, message.reply, {
      key: message.dedupeKey,
      ...(message.edit ? { edit: message.edit } : {}),
      ...(message.route ? { route: message.route } : {}),
    }));
  } catch (thrown) {
    deps.recordFailure(message, asRlError(thrown));
    return;
  }
  // Nothing is awaited between the platform's answer and the mark. A crash in this window posts the message again
  // after the restart: Discord answers that repeat with the first message (its nonce), Slack posts it twice.
  crashPoint("posted");
  if (message.dedupeKey.endsWith(":resumed")) crashPoint("resume:posted");
  deps.outbox.markSent(message.id, id, deps.now());
}

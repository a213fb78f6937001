// A run's first notice is queued while its start reply is still being posted: it waits a moment for that reply to
// become the run's thread, so it lands under it rather than at the top of the channel.
import type { OutboxMessage } from "../../db/outbox.ts";

export interface ThreadWait {
  now: () => number;
  /** The run's thread now, if it has one yet; without it nothing waits. */
  currentThread?: (runId: string) => string | undefined;
  waitMs: number;
}

/** Whether the message should stay queued for now; `threads` is false for a platform without threads (the console). */
export function waitsForThread(message: OutboxMessage, threads: boolean, wait: ThreadWait): boolean {
  if (!threads || !wait.currentThread || message.runId === undefined || message.target.thread || message.route)
    return false;
  if (wait.currentThread(message.runId)) return false;
  return wait.now() - message.createdAt < wait.waitMs;
}

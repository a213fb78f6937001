// Delivers the edits owed to posted messages: the latest content of each, at most one edit a message per gap.
import type { MessageEdit, MessageEditsRepo } from "../../db/message-edits.ts";
import { asRlError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { Reply } from "../reply.ts";
import { deliveryFailureOf, describeUndeliverable } from "./delivery-failure.ts";
import { retryDelayAfter } from "./retry-backoff.ts";

/** Replaces a posted message's content; rejects with the platform's verdict (delivery-failure.ts) when refused. */
export type Editor = (ref: MessageEdit["ref"], reply: Reply) => Promise<unknown>;

/** A few seconds between edits of one message: within Slack's and Discord's edit rate limits. */
export const EDIT_GAP_MS = 3000;

export interface EditSenderOptions {
  edits: MessageEditsRepo;
  log: Logger;
  now: () => number;
  gapMs?: number;
}

export function createEditSender(options: EditSenderOptions) {
  const { edits, log, now } = options;
  const gapMs = options.gapMs ?? EDIT_GAP_MS;
  const retry = { baseBackoffMs: 2000, maxBackoffMs: 10 * 60_000, maxAttempts: 12 };
  const editors = new Map<string, Editor>();
  let draining: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function send(edit: MessageEdit, editor: Editor): Promise<void> {
    try {
      await editor(edit.ref, edit.reply);
    } catch (thrown) {
      const err = asRlError(thrown);
      const failure = deliveryFailureOf(err);
      if ("permanent" in failure) {
        log.error("message cannot be edited; not trying again", { key: edit.key, why: describeUndeliverable(failure) });
        edits.markDead(edit.key, err.message);
      } else if ("retryAfterMs" in failure) {
        edits.markRetry(edit.key, err.message, now() + Math.max(failure.retryAfterMs, gapMs), false);
      } else {
        const backoff = retryDelayAfter(edit.attempts + 1, retry);
        if (backoff === undefined) edits.markDead(edit.key, err.message);
        else edits.markRetry(edit.key, err.message, now() + backoff, true);
      }
      return;
    }
    edits.markSent(edit.key, edit.version, now(), gapMs);
  }

  async function drainOnce(): Promise<void> {
    for (const edit of edits.due(now(), 100)) {
      const editor = editors.get(edit.ref.channel.platform);
      if (editor) await send(edit, editor);
    }
  }

  function drain(): Promise<void> {
    if (stopped) return draining ?? Promise.resolve();
    draining ??= drainOnce().finally(() => {
      draining = undefined;
    });
    return draining;
  }

  const pass = (): void => {
    if (!stopped) void drain().catch((err: unknown) => log.error("message edits failed", { err }));
  };

  return {
    gapMs,
    register(platform: string, editor: Editor): void {
      editors.set(platform, editor);
    },
    drain,
    /** A pass soon (new content was put). */
    kick(): void {
      if (!stopped) setImmediate(pass);
    },
    /** Passes on a timer while an edit is owed (an edit that waits for its gap goes out on a later tick). */
    start(intervalMs = 1000): void {
      stopped = false;
      timer ??= setInterval(() => {
        if (edits.pending() > 0) pass();
      }, intervalMs);
      timer.unref();
      pass();
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await draining?.catch(() => undefined);
    },
  };
}

export type EditSender = ReturnType<typeof createEditSender>;

// The edits owed to posted messages (a sweep's living message): the latest content of each, until the platform has it.
import type { ChannelKey } from "./channel-key.ts";
import type { Reply } from "../src/reply.ts";
import type { Db } from "./open-database.ts";
import { readStoredReply } from "./stored-reply.ts";

export interface MessageEdit {
  /** What the message is ("sweep:s1234567"): one row a message, whatever its edits. */
  key: string;
  ref: { channel: ChannelKey; id: string; thread?: string };
  reply: Reply;
  /** Counts the contents put: the platform has the latest once sentVersion reaches it. */
  version: number;
  attempts: number;
}

interface RawEdit {
  key: string;
  platform: string;
  workspace: string;
  channel: string;
  thread: string | null;
  message_id: string;
  reply_json: string;
  version: number;
  attempts: number;
}

export interface MessageEditsRepo {
  /**
   * The message's new content, owed to the platform. Content equal to the last put changes nothing (false); new
   * content replaces an edit not yet sent, and waits until `gapMs` after the last edit sent (the platform's pace), or
   * after now for the first.
   */
  put(key: string, ref: MessageEdit["ref"], reply: Reply, at: number, gapMs: number): boolean;
  due(now: number, limit: number): MessageEdit[];
  /** The platform has `version`: done, unless newer content came meanwhile (then owed after the gap). */
  markSent(key: string, version: number, at: number, gapMs: number): void;
  markRetry(key: string, error: string, nextAttemptAt: number, countsAsAttempt: boolean): void;
  markDead(key: string, error: string): void;
  /** The reply last put for the message, sent or not. */
  latest(key: string): Reply | undefined;
  pending(): number;
}

export function createMessageEditsRepo(db: Db): MessageEditsRepo {
  const get = db.prepare<[string], { reply_json: string; last_sent_at: number | null }>(
    "SELECT reply_json, last_sent_at FROM message_edits WHERE key = ?",
  );
  const insert = db.prepare(
    `INSERT INTO message_edits (key, platform, workspace, channel, thread, message_id, reply_json, next_attempt_at, last_sent_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const replace = db.prepare(
    `UPDATE message_edits SET reply_json = ?, version = version + 1, status = 'pending', attempts = 0,
       next_attempt_at = MAX(?, COALESCE(last_sent_at, 0) + ?) WHERE key = ?`,
  );
  const due = db.prepare<[number, number], RawEdit>(
    "SELECT * FROM message_edits WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?",
  );
  const sent = db.prepare(
    `UPDATE message_edits SET sent_version = ?, last_sent_at = ?, attempts = 0, last_error = NULL,
       status = CASE WHEN version = ? THEN 'sent' ELSE 'pending' END, next_attempt_at = ? WHERE key = ?`,
  );
  const retry = db.prepare(
    "UPDATE message_edits SET attempts = attempts + ?, last_error = ?, next_attempt_at = ? WHERE key = ?",
  );
  const dead = db.prepare("UPDATE message_edits SET status = 'dead', last_error = ? WHERE key = ?");
  const pending = db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM message_edits WHERE status = 'pending'");
  const put = db.transaction((key: string, ref: MessageEdit["ref"], reply: Reply, at: number, gapMs: number) => {
    const json = JSON.stringify(reply);
    const row = get.get(key);
    if (row?.reply_json === json) return false;
    if (row) replace.run(json, at, gapMs, key);
    else
      insert.run(
        key,
        ref.channel.platform,
        ref.channel.workspace,
        ref.channel.channel,
        ref.thread ?? null,
        ref.id,
        json,
        // The message was just posted: its first edit waits the gap too, as if the post were the last edit.
        at + gapMs,
        at,
      );
    return true;
  });
  return {
    put: (key, ref, reply, at, gapMs) => put.immediate(key, ref, reply, at, gapMs),
    due: (now, limit) =>
      due.all(now, limit).map((r) => ({
        key: r.key,
        ref: {
          channel: { platform: r.platform, workspace: r.workspace, channel: r.channel },
          id: r.message_id,
          ...(r.thread ? { thread: r.thread } : {}),
        },
        reply: readStoredReply(JSON.parse(r.reply_json)),
        version: r.version,
        attempts: r.attempts,
      })),
    markSent: (key, version, at, gapMs) => void sent.run(version, at, version, at + gapMs, key),
    markRetry: (key, error, next, counts) => void retry.run(counts ? 1 : 0, error, next, key),
    markDead: (key, error) => void dead.run(error, key),
    latest: (key) => {
      const row = get.get(key);
      return row ? readStoredReply(JSON.parse(row.reply_json)) : undefined;
    },
    pending: () => pending.get()!.n,
  };
}

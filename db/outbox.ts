// The durable outbox: every notice and digest is written here before it is sent, and marked sent after.
import type { ChannelKey } from "./channel-key.ts";
import type { Reply } from "../src/reply.ts";
import type { Db } from "./open-database.ts";
import { readStoredReply } from "./stored-reply.ts";

export type OutboxKind = "notice" | "digest" | "alert";

/**
 * Where a routed message goes instead of the run's thread (/rl notify): its channel outside the thread, another
 * channel, or a DM (its channel is `dm:<user id>`, opened by the platform when sent). Absent: the run's thread.
 */
export type OutboxRoute = "channel" | "named" | "dm";

/** The channel id a DM to `userId` is queued under; the platform's poster opens the DM itself. */
export function dmChannel(userId: string): string {
  return `dm:${userId}`;
}

/** The person a DM channel id is for, or undefined for an ordinary channel. */
export function dmRecipient(channel: string): string | undefined {
  return channel.startsWith("dm:") ? channel.slice(3) : undefined;
}

export interface OutboxMessage {
  id: number;
  dedupeKey: string;
  target: { channel: ChannelKey; thread?: string };
  kind: OutboxKind;
  runId?: string;
  route?: OutboxRoute;
  reply: Reply;
  /** The platform's id of a message this one replaces in place (an approval request once decided), not a new post. */
  edit?: string;
  attempts: number;
  createdAt: number;
}

export interface NewOutboxMessage {
  /** The same key is queued once, ever: a restart or a repeated event cannot post twice. */
  dedupeKey: string;
  target: { channel: ChannelKey; thread?: string };
  kind: OutboxKind;
  runId?: string;
  route?: OutboxRoute;
  reply: Reply;
  /** Replace this posted message (the platform's id, in the target's channel and thread) rather than post. */
  edit?: string;
}

interface RawOutbox {
  id: number;
  dedupe_key: string;
  platform: string;
  workspace: string;
  channel: string;
  thread: string | null;
  kind: OutboxKind;
  run_id: string | null;
  route: OutboxRoute | null;
  reply_json: string;
  edit_message_id: string | null;
  attempts: number;
  created_at: number;
}

/** A message the outbox stopped trying: the platform refused it for good, or every attempt failed. */
export interface UndeliveredMessage {
  kind: OutboxKind;
  /** The refusal and what to do ("not_in_channel — invite the bot..."), or the last error after the final attempt. */
  why: string;
  attempts: number;
}

export interface OutboxRepo {
  /** True when queued now; false when the key was queued before. */
  enqueue(message: NewOutboxMessage, at: number): boolean;
  due(now: number, limit: number): OutboxMessage[];
  markSent(id: number, messageId: string | undefined, at: number): void;
  markRetry(id: number, error: string, nextAttemptAt: number): void;
  markDead(id: number, error: string): void;
  /** A 429: try again at `nextAttemptAt`; not a failed attempt, so it never uses up the tries. */
  markRateLimited(id: number, error: string, nextAttemptAt: number): void;
  /** The platform will never take it (channel gone, bot removed): never tried again, and `why` is kept for /rl status. */
  markUndeliverable(id: number, why: string, error: string): void;
  /** The run's messages the outbox stopped trying, oldest first. */
  undelivered(runId: string): UndeliveredMessage[];
  /** Posts of `kind` queued for a channel since `since` (rate limits count these). */
  countSince(channel: ChannelKey, kind: OutboxKind, since: number): number;
  /** When the oldest post of `kind` queued for a channel since `since` was queued (when a rate-limit window frees). */
  oldestSince(channel: ChannelKey, kind: OutboxKind, since: number): number | undefined;
  pending(): number;
}

export function createOutboxRepo(db: Db): OutboxRepo {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO outbox (dedupe_key, platform, workspace, channel, thread, kind, run_id, route, reply_json,
       edit_message_id, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const due = db.prepare<[number, number], RawOutbox>(
    "SELECT * FROM outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY id LIMIT ?",
  );
  const sent = db.prepare(
    "UPDATE outbox SET status = 'sent', sent_at = ?, message_id = ?, attempts = attempts + 1 WHERE id = ?",
  );
  const retry = db.prepare(
    "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?",
  );
  const dead = db.prepare("UPDATE outbox SET status = 'dead', attempts = attempts + 1, last_error = ? WHERE id = ?");
  const limited = db.prepare("UPDATE outbox SET last_error = ?, next_attempt_at = ? WHERE id = ?");
  const undeliverable = db.prepare(
    "UPDATE outbox SET status = 'dead', attempts = attempts + 1, last_error = ?, undeliverable = ? WHERE id = ?",
  );
  const undelivered = db.prepare<
    [string],
    { kind: OutboxKind; undeliverable: string | null; last_error: string | null; attempts: number }
  >("SELECT kind, undeliverable, last_error, attempts FROM outbox WHERE run_id = ? AND status = 'dead' ORDER BY id");
  const count = db.prepare<[string, string, string, string, number], { n: number }>(
    "SELECT COUNT(*) AS n FROM outbox WHERE platform = ? AND workspace = ? AND channel = ? AND kind = ? AND created_at >= ?",
  );
  const oldest = db.prepare<[string, string, string, string, number], { t: number | null }>(
    "SELECT MIN(created_at) AS t FROM outbox WHERE platform = ? AND workspace = ? AND channel = ? AND kind = ? AND created_at >= ?",
  );
  const pending = db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM outbox WHERE status = 'pending'");
  return {
    enqueue: (m, at) =>
      insert.run(
        m.dedupeKey,
        m.target.channel.platform,
        m.target.channel.workspace,
        m.target.channel.channel,
        m.target.thread ?? null,
        m.kind,
        m.runId ?? null,
        m.route ?? null,
        JSON.stringify(m.reply),
        m.edit ?? null,
        at,
        at,
      ).changes === 1,
    due: (now, limit) =>
      due.all(now, limit).map((r) => ({
        id: r.id,
        dedupeKey: r.dedupe_key,
        target: {
          channel: { platform: r.platform, workspace: r.workspace, channel: r.channel },
          thread: r.thread ?? undefined,
        },
        kind: r.kind,
        runId: r.run_id ?? undefined,
        ...(r.route ? { route: r.route } : {}),
        reply: readStoredReply(JSON.parse(r.reply_json)),
        ...(r.edit_message_id ? { edit: r.edit_message_id } : {}),
        attempts: r.attempts,
        createdAt: r.created_at,
      })),
    markSent: (id, messageId, at) => void sent.run(at, messageId ?? null, id),
    markRetry: (id, error, next) => void retry.run(error, next, id),
    markDead: (id, error) => void dead.run(error, id),
    markRateLimited: (id, error, next) => void limited.run(error, next, id),
    markUndeliverable: (id, why, error) => void undeliverable.run(error, why, id),
    undelivered: (runId) =>
      undelivered.all(runId).map((r) => ({
        kind: r.kind,
        why: r.undeliverable ?? `gave up after ${r.attempts} attempts: ${r.last_error ?? "unknown error"}`,
        attempts: r.attempts,
      })),
    countSince: (c, kind, since) => count.get(c.platform, c.workspace, c.channel, kind, since)!.n,
    oldestSince: (c, kind, since) => oldest.get(c.platform, c.workspace, c.channel, kind, since)?.t ?? undefined,
    pending: () => pending.get()!.n,
  };
}

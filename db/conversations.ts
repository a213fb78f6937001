// Chat memory: the messages of each conversation (a Slack thread, a Discord channel or thread, a console session).
import type { ChannelKey } from "./channel-key.ts";
import type { Db } from "./open-database.ts";

/** Which conversation: a channel, and the thread inside it ("" for the channel itself). */
export interface ConversationKey extends ChannelKey {
  thread?: string;
}

/** A stored message: the repository only needs its role (to keep turns whole); the rest is the caller's to check. */
export interface StoredMessage {
  role: string;
}

export interface ConversationsRepo {
  /** Add messages after the conversation's last one, all or none. */
  append(key: ConversationKey, messages: readonly StoredMessage[]): void;
  /** The last `limit` messages, oldest first, starting at a turn boundary (see startIndex). */
  recent(key: ConversationKey, limit: number): StoredMessage[];
  /** Keep at most `keep` messages, cutting whole turns from the front so no tool result loses its request. */
  trim(key: ConversationKey, keep: number): void;
  count(key: ConversationKey): number;
}

interface Row {
  seq: number;
  message_json: string;
}

/**
 * Where a window of messages may start: at the first person's message, so the model never sees a tool
 * result (or an answer) without what it answers. When the window holds no person's message at all (one
 * very long turn), start after any leading tool results rather than drop everything.
 */
export function startIndex(roles: readonly string[]): number {
  const user = roles.indexOf("user");
  if (user >= 0) return user;
  const notTool = roles.findIndex((r) => r !== "tool");
  return notTool >= 0 ? notTool : roles.length;
}

function roleOf(json: string): string {
  try {
    const parsed = JSON.parse(json) as unknown;
    return typeof parsed === "object" && parsed !== null && typeof (parsed as { role?: unknown }).role === "string"
      ? (parsed as { role: string }).role
      : "";
  } catch {
    return "";
  }
}

export function createConversationsRepo(db: Db, now: () => number = Date.now): ConversationsRepo {
  type Params = [string, string, string, string];
  const lastSeq = db.prepare<Params, { seq: number | null }>(
    "SELECT MAX(seq) AS seq FROM conversations WHERE platform = ? AND workspace = ? AND channel = ? AND thread = ?",
  );
  const insert = db.prepare(
    "INSERT INTO conversations (platform, workspace, channel, thread, seq, message_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const newest = db.prepare<[...Params, number], Row>(
    "SELECT seq, message_json FROM conversations WHERE platform = ? AND workspace = ? AND channel = ? AND thread = ? ORDER BY seq DESC LIMIT ?",
  );
  const countRows = db.prepare<Params, { n: number }>(
    "SELECT COUNT(*) AS n FROM conversations WHERE platform = ? AND workspace = ? AND channel = ? AND thread = ?",
  );
  const deleteBefore = db.prepare<[...Params, number]>(
    "DELETE FROM conversations WHERE platform = ? AND workspace = ? AND channel = ? AND thread = ? AND seq < ?",
  );
  const deleteAll = db.prepare<Params>(
    "DELETE FROM conversations WHERE platform = ? AND workspace = ? AND channel = ? AND thread = ?",
  );

  const params = (key: ConversationKey): Params => [key.platform, key.workspace, key.channel, key.thread ?? ""];
  /** The newest `limit` rows, oldest first, cut to start at a turn boundary. */
  const window = (key: ConversationKey, limit: number): Row[] => {
    const rows = newest.all(...params(key), Math.max(0, limit)).reverse();
    return rows.slice(startIndex(rows.map((r) => roleOf(r.message_json))));
  };

  return {
    append: (key, messages) => {
      if (messages.length === 0) return;
      db.transaction(() => {
        let seq = lastSeq.get(...params(key))?.seq ?? 0;
        const at = now();
        for (const message of messages) insert.run(...params(key), ++seq, JSON.stringify(message), at);
      }).immediate();
    },
    recent: (key, limit) => {
      const out: StoredMessage[] = [];
      for (const row of window(key, limit)) {
        // A row that is not a message (hand-edited, or from a future version) is skipped, not fatal.
        try {
          const parsed = JSON.parse(row.message_json) as unknown;
          if (typeof parsed === "object" && parsed !== null && typeof (parsed as { role?: unknown }).role === "string")
            out.push(parsed as StoredMessage);
        } catch {
          continue;
        }
      }
      return out;
    },
    trim: (key, keep) => {
      db.transaction(() => {
        const kept = window(key, keep);
        const first = kept[0];
        if (first) deleteBefore.run(...params(key), first.seq);
        else deleteAll.run(...params(key));
      }).immediate();
    },
    count: (key) => countRows.get(...params(key))?.n ?? 0,
  };
}

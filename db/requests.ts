// Clients' requests answered once: the id a client made for a command, taken before the command runs, and its answer.
import type { Reply } from "../src/reply.ts";
import type { ChannelKey } from "./channel-key.ts";
import type { Db } from "./open-database.ts";
import { readStoredReply } from "./stored-reply.ts";

/** What a request id may look like: made by the client, so checked before it is looked up or stored. */
export const REQUEST_ID_SHAPE = /^[A-Za-z0-9._:-]{8,128}$/;

/** Answered requests are kept this long, so a retry within it hears the first answer; then they are deleted. */
export const REQUEST_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export interface RequestAsked {
  channel: ChannelKey;
  userId: string;
  commandText: string;
}

export interface RequestRow extends RequestAsked {
  id: string;
  /** The process that took it: this one, or a bot that has gone since. */
  ownerPid: number;
  state: "running" | "answered";
  answer?: { ok: boolean; reply: Reply };
  createdAt: number;
  answeredAt?: number;
}

interface RawRequest {
  id: string;
  platform: string;
  workspace: string;
  channel: string;
  user_id: string;
  command_text: string;
  owner_pid: number;
  state: "running" | "answered";
  ok: number | null;
  reply_json: string | null;
  created_at: number;
  answered_at: number | null;
}

export interface RequestsRepo {
  /** Records `id` as taken by this process: true when it is new; false when it was taken before (see get). */
  take(id: string, asked: RequestAsked): boolean;
  get(id: string): RequestRow | undefined;
  /** Records the answer of a request this process took. */
  answer(id: string, ok: boolean, reply: Reply): void;
}

function toRow(r: RawRequest): RequestRow {
  return {
    id: r.id,
    channel: { platform: r.platform, workspace: r.workspace, channel: r.channel },
    userId: r.user_id,
    commandText: r.command_text,
    ownerPid: r.owner_pid,
    state: r.state,
    ...(r.state === "answered" && r.reply_json !== null
      ? { answer: { ok: r.ok === 1, reply: readStoredReply(JSON.parse(r.reply_json)) } }
      : {}),
    createdAt: r.created_at,
    ...(r.answered_at !== null ? { answeredAt: r.answered_at } : {}),
  };
}

export function createRequestsRepo(db: Db, now: () => number = Date.now): RequestsRepo {
  const insert = db.prepare(
    `INSERT INTO requests (id, platform, workspace, channel, user_id, command_text, owner_pid, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
  );
  const prune = db.prepare("DELETE FROM requests WHERE created_at < ?");
  const select = db.prepare<[string], RawRequest>("SELECT * FROM requests WHERE id = ?");
  const answer = db.prepare(
    "UPDATE requests SET state = 'answered', ok = ?, reply_json = ?, answered_at = ? WHERE id = ? AND state = 'running'",
  );
  const take = db.transaction((id: string, asked: RequestAsked) => {
    const t = now();
    prune.run(t - REQUEST_RETENTION_MS);
    const { platform, workspace, channel } = asked.channel;
    return insert.run(id, platform, workspace, channel, asked.userId, asked.commandText, process.pid, t).changes === 1;
  });
  return {
    take: (id, asked) => take(id, asked),
    get: (id) => {
      const r = select.get(id);
      return r ? toRow(r) : undefined;
    },
    answer: (id, ok, reply) => void answer.run(ok ? 1 : 0, JSON.stringify(reply), now(), id),
  };
}

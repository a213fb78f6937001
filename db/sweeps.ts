// Sweeps: one grid of config values over one environment, started as one run per combination that share its id.
import type { ChannelKey } from "./channel-key.ts";
import type { Db } from "./open-database.ts";

export interface SweepRow {
  id: string;
  channel: ChannelKey;
  thread?: string;
  environment: string;
  /** Each field with the values it takes, in the order the person gave them. */
  grid: Array<{ field: string; values: unknown[] }>;
  createdBy: string;
  createdAt: number;
  /** When its comparison was posted (once, after its last run ended). */
  comparedAt?: number;
  /** Its own message, edited as its runs move: the platform's id, and the thread the message is in, if any. */
  message?: { id: string; thread?: string };
}

export type NewSweep = Omit<SweepRow, "createdAt" | "comparedAt" | "message">;

interface RawSweep {
  id: string;
  platform: string;
  workspace: string;
  channel: string;
  thread: string | null;
  environment: string;
  grid_json: string;
  created_by: string;
  created_at: number;
  compared_at: number | null;
  message_id: string | null;
  message_thread: string | null;
}

export interface SweepsRepo {
  insert(sweep: NewSweep): SweepRow;
  get(id: string): SweepRow | undefined;
  /** Ids of the channel's sweeps, newest first, for autocomplete. */
  idsByChannel(channel: ChannelKey, limit: number): string[];
  /** Sweeps whose comparison is not posted yet. */
  listUncompared(): SweepRow[];
  /** Compare-and-set: true for the one caller that marks the sweep compared. */
  markCompared(id: string, at: number): boolean;
  /** The sweep's message, once posted (kept as first recorded). */
  setMessage(id: string, message: { id: string; thread?: string }): void;
}

const toRow = (r: RawSweep): SweepRow => ({
  id: r.id,
  channel: { platform: r.platform, workspace: r.workspace, channel: r.channel },
  thread: r.thread ?? undefined,
  environment: r.environment,
  grid: JSON.parse(r.grid_json) as SweepRow["grid"],
  createdBy: r.created_by,
  createdAt: r.created_at,
  comparedAt: r.compared_at ?? undefined,
  ...(r.message_id ? { message: { id: r.message_id, ...(r.message_thread ? { thread: r.message_thread } : {}) } } : {}),
});

export function createSweepsRepo(db: Db, now: () => number = Date.now): SweepsRepo {
  const insert = db.prepare(
    "INSERT INTO sweeps (id, platform, workspace, channel, thread, environment, grid_json, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const get = db.prepare<[string], RawSweep>("SELECT * FROM sweeps WHERE id = ?");
  const byChannel = db.prepare<[string, string, string, number], { id: string }>(
    "SELECT id FROM sweeps WHERE platform = ? AND workspace = ? AND channel = ? ORDER BY created_at DESC, rowid DESC LIMIT ?",
  );
  const uncompared = db.prepare<[], RawSweep>(
    "SELECT * FROM sweeps WHERE compared_at IS NULL ORDER BY created_at, rowid",
  );
  const compared = db.prepare("UPDATE sweeps SET compared_at = ? WHERE id = ? AND compared_at IS NULL");
  const message = db.prepare(
    "UPDATE sweeps SET message_id = ?, message_thread = ? WHERE id = ? AND message_id IS NULL",
  );
  const repo: SweepsRepo = {
    insert: (s) => {
      insert.run(
        s.id,
        s.channel.platform,
        s.channel.workspace,
        s.channel.channel,
        s.thread ?? null,
        s.environment,
        JSON.stringify(s.grid),
        s.createdBy,
        now(),
      );
      return repo.get(s.id)!;
    },
    get: (id) => {
      const r = get.get(id);
      return r ? toRow(r) : undefined;
    },
    idsByChannel: (c, limit) => byChannel.all(c.platform, c.workspace, c.channel, limit).map((r) => r.id),
    listUncompared: () => uncompared.all().map(toRow),
    markCompared: (id, at) => compared.run(at, id).changes === 1,
    setMessage: (id, m) => void message.run(m.id, m.thread ?? null, id),
  };
  return repo;
}

// Inference tests (/rl test): which channel ran one on which environment, its status, and the stored result.
import type { ChannelKey } from "./channel-key.ts";
import type { Db } from "./open-database.ts";

export type InferenceTestStatus = "running" | "completed" | "failed";

export interface InferenceTestRow {
  id: string;
  channel: ChannelKey;
  environment: string;
  createdBy: string;
  createdAt: number;
  finishedAt?: number;
  status: InferenceTestStatus;
  /** The result as stored (JSON); its shape is the core's InferenceTestResult, or { error } for a failed test. */
  result?: unknown;
}

export interface NewInferenceTest {
  id: string;
  channel: ChannelKey;
  environment: string;
  createdBy: string;
}

export interface InferenceTestsRepo {
  insert(test: NewInferenceTest): InferenceTestRow;
  finish(id: string, status: Exclude<InferenceTestStatus, "running">, result: unknown): InferenceTestRow;
  get(id: string): InferenceTestRow | undefined;
  /** Newest first. */
  listByChannel(channel: ChannelKey, limit: number): InferenceTestRow[];
  /** At start-up: tests a previous bot process left running can never finish; returns how many. */
  failInterrupted(): number;
}

interface RawRow {
  id: string;
  platform: string;
  workspace: string;
  channel: string;
  environment: string;
  created_by: string;
  created_at: number;
  finished_at: number | null;
  status: InferenceTestStatus;
  result_json: string | null;
}

function toRow(r: RawRow): InferenceTestRow {
  return {
    id: r.id,
    channel: { platform: r.platform, workspace: r.workspace, channel: r.channel },
    environment: r.environment,
    createdBy: r.created_by,
    createdAt: r.created_at,
    finishedAt: r.finished_at ?? undefined,
    status: r.status,
    result: r.result_json === null ? undefined : (JSON.parse(r.result_json) as unknown),
  };
}

export function createInferenceTestsRepo(db: Db, now: () => number = Date.now): InferenceTestsRepo {
  const insert = db.prepare(
    `INSERT INTO inference_tests (id, platform, workspace, channel, environment, created_by, created_at, status)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'running')`,
  );
  const finish = db.prepare("UPDATE inference_tests SET status = ?, finished_at = ?, result_json = ? WHERE id = ?");
  const get = db.prepare<[string], RawRow>("SELECT * FROM inference_tests WHERE id = ?");
  const byChannel = db.prepare<[string, string, string, number], RawRow>(
    "SELECT * FROM inference_tests WHERE platform = ? AND workspace = ? AND channel = ? ORDER BY created_at DESC, rowid DESC LIMIT ?",
  );
  const repo: InferenceTestsRepo = {
    insert: (t) => {
      insert.run(t.id, t.channel.platform, t.channel.workspace, t.channel.channel, t.environment, t.createdBy, now());
      return repo.get(t.id)!;
    },
    finish: (id, status, result) => {
      finish.run(status, now(), JSON.stringify(result), id);
      const row = repo.get(id);
      if (!row) throw new Error(`inference test ${id} vanished`);
      return row;
    },
    get: (id) => {
      const r = get.get(id);
      return r ? toRow(r) : undefined;
    },
    listByChannel: (c, limit) => byChannel.all(c.platform, c.workspace, c.channel, limit).map(toRow),
    failInterrupted: () =>
      db
        .prepare(
          "UPDATE inference_tests SET status = 'failed', finished_at = ?, result_json = ? WHERE status = 'running'",
        )
        .run(now(), JSON.stringify({ error: "The bot restarted while this test ran; run /rl test again." })).changes,
  };
  return repo;
}

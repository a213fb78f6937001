// Training runs: what was started where and by whom, its config, status, and outcome; survives restarts.
import type { ChannelKey } from "./channel-key.ts";
import type { Db } from "./open-database.ts";
import { parseConfigJson, stringifyConfigJson } from "./config-json.ts";
import { currentRequest } from "./request-scope.ts";

export const RUN_STATUSES = [
  "queued",
  "starting",
  "running",
  "stopping",
  "stopped",
  "completed",
  "failed",
  "lost",
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const ACTIVE_STATUSES: readonly RunStatus[] = ["queued", "starting", "running", "stopping"];

export interface RunRow {
  id: string;
  channel: ChannelKey;
  thread?: string;
  environment: string;
  config: Record<string, unknown>;
  status: RunStatus;
  error?: string;
  createdBy: string;
  /** The surface it was started through when not a person's own hand: "mcp" (their agent). */
  createdVia?: string;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  updatedAt: number;
  backend: "local" | "slurm";
  /** The training stack that runs it ("atropos-tinker" for every run made before there were others). */
  stack: string;
  configPath?: string;
  wandbProject?: string;
  wandbGroup?: string;
  wandbRunName?: string;
  totalSteps?: number;
  failedComponent?: string;
  stoppedBy?: string;
  /** The Slurm job id, for runs on the slurm backend. */
  jobId?: string;
  /** How many requeues of that job the bot has followed (its `Restarts`): each was one more attempt of the run. */
  jobRequeues: number;
  /** The sweep this run is one combination of. */
  sweepId?: string;
  /** How many times it was resumed from a checkpoint (0: never); each attempt gets its own notices. */
  attempt: number;
  /** Who resumed it last, and at which step. */
  resumedBy?: string;
  resumedStep?: number;
  /** How long its earlier attempts trained, in ms (each from its start to its end); the current one runs from startedAt. */
  trainedMs: number;
  /** The run it was forked from, and the step of the checkpoint it started from. */
  parentId?: string;
  forkStep?: number;
}

export interface NewRun {
  id: string;
  channel: ChannelKey;
  thread?: string;
  environment: string;
  config: Record<string, unknown>;
  status: RunStatus;
  createdBy: string;
  createdVia?: string;
  backend?: "local" | "slurm";
  stack?: string;
  sweepId?: string;
  parentId?: string;
  forkStep?: number;
}

type Patchable =
  | "status"
  | "error"
  | "startedAt"
  | "endedAt"
  | "thread"
  | "configPath"
  | "wandbProject"
  | "wandbGroup"
  | "wandbRunName"
  | "totalSteps"
  | "failedComponent"
  | "stoppedBy"
  | "jobId"
  | "jobRequeues"
  | "attempt"
  | "resumedBy"
  | "resumedStep"
  | "trainedMs";
export type RunPatch = Partial<Pick<RunRow, Patchable>>;

interface RawRun {
  id: string;
  platform: string;
  workspace: string;
  channel: string;
  thread: string | null;
  environment: string;
  config_json: string;
  status: RunStatus;
  error: string | null;
  created_by: string;
  created_via: string | null;
  created_at: number;
  started_at: number | null;
  ended_at: number | null;
  updated_at: number;
  backend: "local" | "slurm";
  stack: string;
  config_path: string | null;
  wandb_project: string | null;
  wandb_group: string | null;
  wandb_run_name: string | null;
  total_steps: number | null;
  failed_component: string | null;
  stopped_by: string | null;
  job_id: string | null;
  job_requeues: number;
  sweep_id: string | null;
  attempt: number;
  resumed_by: string | null;
  resumed_step: number | null;
  trained_ms: number;
  parent_id: string | null;
  fork_step: number | null;
}

export interface RunsRepo {
  insert(run: NewRun): RunRow;
  get(id: string): RunRow | undefined;
  update(id: string, patch: RunPatch): RunRow;
  /** Compare-and-set: apply `patch` only while the run's status is one of `from`; undefined when it was not. */
  transition(id: string, from: readonly RunStatus[], patch: RunPatch): RunRow | undefined;
  countByStatus(statuses: readonly RunStatus[]): number;
  /** Newest first, skipping the newest `offset`. */
  listByChannel(channel: ChannelKey, limit: number, offset?: number): RunRow[];
  listAll(limit: number, offset?: number): RunRow[];
  /** How many runs there are in the channel, or in every channel: what paging through them goes up to. */
  countIn(channel: ChannelKey | undefined): number;
  listByStatus(statuses: readonly RunStatus[]): RunRow[];
  /** Ids of runs whose id starts with `prefix`, for autocomplete and short ids. */
  idsLike(prefix: string, limit: number): string[];
  /** A sweep's runs, in the order they were created. */
  listBySweep(sweepId: string): RunRow[];
  /** The runs a client's request created (db/request-scope.ts), in the order they were created. */
  listByRequest(requestId: string): RunRow[];
}

function toRow(r: RawRun): RunRow {
  return {
    id: r.id,
    channel: { platform: r.platform, workspace: r.workspace, channel: r.channel },
    thread: r.thread ?? undefined,
    environment: r.environment,
    config: parseConfigJson(r.config_json) as Record<string, unknown>,
    status: r.status,
    error: r.error ?? undefined,
    createdBy: r.created_by,
    createdVia: r.created_via ?? undefined,
    createdAt: r.created_at,
    startedAt: r.started_at ?? undefined,
    endedAt: r.ended_at ?? undefined,
    updatedAt: r.updated_at,
    backend: r.backend,
    stack: r.stack,
    configPath: r.config_path ?? undefined,
    wandbProject: r.wandb_project ?? undefined,
    wandbGroup: r.wandb_group ?? undefined,
    wandbRunName: r.wandb_run_name ?? undefined,
    totalSteps: r.total_steps ?? undefined,
    failedComponent: r.failed_component ?? undefined,
    stoppedBy: r.stopped_by ?? undefined,
    jobId: r.job_id ?? undefined,
    jobRequeues: r.job_requeues,
    sweepId: r.sweep_id ?? undefined,
    attempt: r.attempt,
    resumedBy: r.resumed_by ?? undefined,
    resumedStep: r.resumed_step ?? undefined,
    trainedMs: r.trained_ms,
    parentId: r.parent_id ?? undefined,
    forkStep: r.fork_step ?? undefined,
  };
}

const COLUMNS: Record<keyof RunPatch, string> = {
  status: "status",
  error: "error",
  startedAt: "started_at",
  endedAt: "ended_at",
  thread: "thread",
  configPath: "config_path",
  wandbProject: "wandb_project",
  wandbGroup: "wandb_group",
  wandbRunName: "wandb_run_name",
  totalSteps: "total_steps",
  failedComponent: "failed_component",
  stoppedBy: "stopped_by",
  jobId: "job_id",
  jobRequeues: "job_requeues",
  attempt: "attempt",
  resumedBy: "resumed_by",
  resumedStep: "resumed_step",
  trainedMs: "trained_ms",
};

export function createRunsRepo(db: Db, now: () => number = Date.now): RunsRepo {
  const insert = db.prepare(
    `INSERT INTO runs (id, platform, workspace, channel, thread, environment, config_json, status, created_by, created_at, updated_at, backend, stack, sweep_id, parent_id, fork_step, request_id, created_via)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const get = db.prepare<[string], RawRun>("SELECT * FROM runs WHERE id = ?");
  const byChannel = db.prepare<[string, string, string, number, number], RawRun>(
    "SELECT * FROM runs WHERE platform = ? AND workspace = ? AND channel = ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?",
  );
  const all = db.prepare<[number, number], RawRun>(
    "SELECT * FROM runs ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?",
  );
  const countChannel = db.prepare<[string, string, string], { n: number }>(
    "SELECT COUNT(*) AS n FROM runs WHERE platform = ? AND workspace = ? AND channel = ?",
  );
  const countAll = db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM runs");
  const bySweep = db.prepare<[string], RawRun>("SELECT * FROM runs WHERE sweep_id = ? ORDER BY created_at, rowid");
  const byRequest = db.prepare<[string], RawRun>("SELECT * FROM runs WHERE request_id = ? ORDER BY created_at, rowid");
  // A sweep's runs share one thread: the message that becomes the thread of one becomes it for those still without one.
  const shareThread = db.prepare(
    "UPDATE runs SET thread = ? WHERE sweep_id = (SELECT sweep_id FROM runs WHERE id = ?) AND thread IS NULL",
  );
  const like = db.prepare<[string, number], { id: string }>(
    "SELECT id FROM runs WHERE id LIKE ? ESCAPE '\\' ORDER BY created_at DESC LIMIT ?",
  );

  const repo: RunsRepo = {
    insert: (run) => {
      const t = now();
      insert.run(
        run.id,
        run.channel.platform,
        run.channel.workspace,
        run.channel.channel,
        run.thread ?? null,
        run.environment,
        stringifyConfigJson(run.config),
        run.status,
        run.createdBy,
        t,
        t,
        run.backend ?? "local",
        run.stack ?? "atropos-tinker",
        run.sweepId ?? null,
        run.parentId ?? null,
        run.forkStep ?? null,
        currentRequest() ?? null,
        run.createdVia ?? null,
      );
      return repo.get(run.id)!;
    },
    get: (id) => {
      const r = get.get(id);
      return r ? toRow(r) : undefined;
    },
    update: (id, patch) => {
      const keys = Object.keys(patch) as Array<keyof RunPatch>;
      const sets = keys.map((k) => `${COLUMNS[k]} = ?`);
      db.prepare(`UPDATE runs SET ${[...sets, "updated_at = ?"].join(", ")} WHERE id = ?`).run(
        ...keys.map((k) => patch[k] ?? null),
        now(),
        id,
      );
      if (patch.thread) shareThread.run(patch.thread, id);
      const row = repo.get(id);
      if (!row) throw new Error(`run ${id} vanished during update`);
      return row;
    },
    transition: (id, from, patch) => {
      const keys = Object.keys(patch) as Array<keyof RunPatch>;
      const sets = [...keys.map((k) => `${COLUMNS[k]} = ?`), "updated_at = ?"];
      const result = db
        .prepare(`UPDATE runs SET ${sets.join(", ")} WHERE id = ? AND status IN (${from.map(() => "?").join(", ")})`)
        .run(...keys.map((k) => patch[k] ?? null), now(), id, ...from);
      return result.changes === 1 ? repo.get(id) : undefined;
    },
    countByStatus: (statuses) =>
      (
        db
          .prepare(`SELECT COUNT(*) AS n FROM runs WHERE status IN (${statuses.map(() => "?").join(", ")})`)
          .get(...statuses) as { n: number }
      ).n,
    listByChannel: (c, limit, offset = 0) =>
      byChannel.all(c.platform, c.workspace, c.channel, limit, offset).map(toRow),
    listAll: (limit, offset = 0) => all.all(limit, offset).map(toRow),
    countIn: (c) => (c ? countChannel.get(c.platform, c.workspace, c.channel)?.n : countAll.get()?.n) ?? 0,
    listByStatus: (statuses) =>
      db
        .prepare<string[], RawRun>(
          `SELECT * FROM runs WHERE status IN (${statuses.map(() => "?").join(", ")}) ORDER BY created_at, rowid`,
        )
        .all(...statuses)
        .map(toRow),
    listBySweep: (sweepId) => bySweep.all(sweepId).map(toRow),
    listByRequest: (requestId) => byRequest.all(requestId).map(toRow),
    idsLike: (prefix, limit) => like.all(`${prefix.replace(/[\\%_]/g, (m) => `\\${m}`)}%`, limit).map((r) => r.id),
  };
  return repo;
}

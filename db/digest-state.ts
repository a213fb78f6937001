// Per-run digest memory: mute switch, when the last digest went out, last values (for changes), alert latches.
import type { Db } from "./open-database.ts";

export interface DigestState {
  runId: string;
  muted: boolean;
  lastDigestAt?: number;
  lastReward?: number;
  lastPercentCorrect?: number;
  bestReward?: number;
  lastStep?: number;
  lastStepAt?: number;
  /** Checkpoints the run had saved when its last digest went out (the next says which are new). */
  lastCheckpointCount?: number;
  stallAlerted: boolean;
  regressionAlerted: boolean;
}

interface RawState {
  run_id: string;
  muted: number;
  last_digest_at: number | null;
  last_reward: number | null;
  last_percent_correct: number | null;
  best_reward: number | null;
  last_step: number | null;
  last_step_at: number | null;
  last_checkpoint_count: number | null;
  stall_alerted: number;
  regression_alerted: number;
}

/** The fields a change writes; every other field keeps what is in the database now. */
export type DigestPatch = Partial<Omit<DigestState, "runId">>;

export interface DigestStateRepo {
  get(runId: string): DigestState;
  /** Many runs' states in one query (a digest pass reads every active run's). */
  getMany(runIds: readonly string[]): Map<string, DigestState>;
  /** One statement of the fields that change: a pass working from an older copy never undoes a mute given meanwhile. */
  update(runId: string, patch: DigestPatch): void;
}

const u = <T>(v: T | null): T | undefined => v ?? undefined;

const COLUMNS: Record<keyof DigestPatch, string> = {
  muted: "muted",
  lastDigestAt: "last_digest_at",
  lastReward: "last_reward",
  lastPercentCorrect: "last_percent_correct",
  bestReward: "best_reward",
  lastStep: "last_step",
  lastStepAt: "last_step_at",
  lastCheckpointCount: "last_checkpoint_count",
  stallAlerted: "stall_alerted",
  regressionAlerted: "regression_alerted",
};

const toColumn = (v: unknown): number | null =>
  typeof v === "boolean" ? (v ? 1 : 0) : typeof v === "number" ? v : null;

/** A run's state as stored, or a fresh one for a run no pass has seen yet. */
function toState(runId: string, r: RawState | undefined): DigestState {
  if (!r) return { runId, muted: false, stallAlerted: false, regressionAlerted: false };
  return {
    runId,
    muted: r.muted === 1,
    lastDigestAt: u(r.last_digest_at),
    lastReward: u(r.last_reward),
    lastPercentCorrect: u(r.last_percent_correct),
    bestReward: u(r.best_reward),
    lastStep: u(r.last_step),
    lastStepAt: u(r.last_step_at),
    lastCheckpointCount: u(r.last_checkpoint_count),
    stallAlerted: r.stall_alerted === 1,
    regressionAlerted: r.regression_alerted === 1,
  };
}

export function createDigestStateRepo(db: Db): DigestStateRepo {
  const get = db.prepare<[string], RawState>("SELECT * FROM digest_state WHERE run_id = ?");
  const getMany = db.prepare<[string], RawState>(
    "SELECT * FROM digest_state WHERE run_id IN (SELECT value FROM json_each(?))",
  );
  const statements = new Map<string, ReturnType<typeof db.prepare<unknown[]>>>();
  const statementFor = (keys: Array<keyof DigestPatch>) => {
    const id = keys.join(",");
    let st = statements.get(id);
    if (!st) {
      const cols = keys.map((k) => COLUMNS[k]);
      st = db.prepare<unknown[]>(
        `INSERT INTO digest_state (run_id${cols.map((c) => `, ${c}`).join("")}) VALUES (?${cols.map(() => ", ?").join("")})
         ON CONFLICT (run_id) DO UPDATE SET ${cols.map((c) => `${c} = excluded.${c}`).join(", ")}`,
      );
      statements.set(id, st);
    }
    return st;
  };
  return {
    get: (runId) => toState(runId, get.get(runId)),
    getMany: (runIds) => {
      const rows = new Map(getMany.all(JSON.stringify(runIds)).map((r) => [r.run_id, r]));
      return new Map(runIds.map((id) => [id, toState(id, rows.get(id))]));
    },
    update: (runId, patch) => {
      const keys = (Object.keys(patch) as Array<keyof DigestPatch>).filter((k) => k in COLUMNS);
      if (keys.length === 0) return;
      statementFor(keys).run(runId, ...keys.map((k) => toColumn(patch[k])));
    },
  };
}

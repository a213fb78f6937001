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
  stall_alerted: number;
  regression_alerted: number;
}

export interface DigestStateRepo {
  get(runId: string): DigestState;
  save(state: DigestState): void;
}

const u = <T>(v: T | null): T | undefined => v ?? undefined;

export function createDigestStateRepo(db: Db): DigestStateRepo {
  const get = db.prepare<[string], RawState>("SELECT * FROM digest_state WHERE run_id = ?");
  const save = db.prepare(
    `INSERT INTO digest_state (run_id, muted, last_digest_at, last_reward, last_percent_correct, best_reward, last_step, last_step_at, stall_alerted, regression_alerted)
     VALUES (@runId, @muted, @lastDigestAt, @lastReward, @lastPercentCorrect, @bestReward, @lastStep, @lastStepAt, @stallAlerted, @regressionAlerted)
     ON CONFLICT (run_id) DO UPDATE SET muted = excluded.muted, last_digest_at = excluded.last_digest_at, last_reward = excluded.last_reward,
       last_percent_correct = excluded.last_percent_correct, best_reward = excluded.best_reward, last_step = excluded.last_step,
       last_step_at = excluded.last_step_at, stall_alerted = excluded.stall_alerted, regression_alerted = excluded.regression_alerted`,
  );
  return {
    get: (runId) => {
      const r = get.get(runId);
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
        stallAlerted: r.stall_alerted === 1,
        regressionAlerted: r.regression_alerted === 1,
      };
    },
    save: (s) =>
      void save.run({
        runId: s.runId,
        muted: s.muted ? 1 : 0,
        lastDigestAt: s.lastDigestAt ?? null,
        lastReward: s.lastReward ?? null,
        lastPercentCorrect: s.lastPercentCorrect ?? null,
        bestReward: s.bestReward ?? null,
        lastStep: s.lastStep ?? null,
        lastStepAt: s.lastStepAt ?? null,
        stallAlerted: s.stallAlerted ? 1 : 0,
        regressionAlerted: s.regressionAlerted ? 1 : 0,
      }),
  };
}

// A cookbook run's progress from its log folder: metrics.jsonl (one record per step) and checkpoints.jsonl.
import { stat } from "node:fs/promises";
import path from "node:path";
import { createLogFollower, type LineFold } from "../../metrics/follow-log.ts";
import type { TrainerProgress } from "../../metrics/trainer-log.ts";
import { jsonRecord } from "../json-record.ts";
import type { Checkpoint } from "../training-stack.ts";

/** The mean total reward the RL loop logs for each step's batch (tinker_cookbook/rl/metric_util.py). */
export const REWARD_KEY = "env/all/reward/total";
/** The supervised loop's loss; the RL loop logs no loss of its own. */
const LOSS_KEYS = ["train_mean_nll", "loss"];
/** The policy's entropy and the completions' mean length (tokens per turn), for the watchdog. */
const ENTROPY_KEY = "optim/entropy";
const LENGTH_KEY = "env/all/ac_tokens_per_turn";

export interface CheckpointRecord {
  name: string;
  batch?: number;
  /** A loop-state key some loops write beside (or instead of) batch. */
  step?: number;
  final?: boolean;
  state_path?: string;
  sampler_path?: string;
}

const numberAt = (record: Record<string, unknown>, key: string): number | undefined =>
  typeof record[key] === "number" && Number.isFinite(record[key]) ? record[key] : undefined;

// Both files are followed as they grow (every record counts, none is read twice).
const followCheckpoints = createLogFollower<CheckpointRecord[]>({
  initial: () => [],
  add(out, line) {
    const r = jsonRecord(line);
    if (typeof r?.name !== "string") return;
    out.push({
      name: r.name,
      batch: numberAt(r, "batch"),
      step: numberAt(r, "step"),
      final: r.final === true ? true : undefined,
      state_path: typeof r.state_path === "string" ? r.state_path : undefined,
      sampler_path: typeof r.sampler_path === "string" ? r.sampler_path : undefined,
    });
  },
});

/** What a training step's record says that progress shows. */
interface StepRecord {
  reward?: number;
  doneFraction?: number;
  loss?: number;
  entropy?: number;
  length?: number;
}

const metricsFold: LineFold<Map<number, StepRecord>> = {
  initial: () => new Map(),
  add(steps, line) {
    const record = jsonRecord(line);
    const step = record && numberAt(record, "step");
    // Evaluation records carry test/ keys only; a training step has the reward or the progress keys.
    if (!record || step === undefined) return;
    const reward = numberAt(record, REWARD_KEY);
    const doneFraction = numberAt(record, "progress/done_frac");
    if (reward === undefined && doneFraction === undefined) return;
    let loss: number | undefined;
    for (const key of LOSS_KEYS) loss = numberAt(record, key) ?? loss;
    // A resumed run logs again the steps after its last checkpoint: the last record of a step is the one that counts.
    steps.set(step, {
      reward,
      doneFraction,
      loss,
      entropy: numberAt(record, ENTROPY_KEY),
      length: numberAt(record, LENGTH_KEY),
    });
  },
};
const followMetrics = createLogFollower(metricsFold);

export async function readCheckpoints(logDir: string): Promise<CheckpointRecord[]> {
  return (await followCheckpoints(path.join(logDir, "checkpoints.jsonl"))).map((record) => ({ ...record }));
}

/**
 * The run's checkpoints in the stack-neutral shape. The records carry no time: the last one was appended when the
 * file was last written, so it gets the file's time; the others' times are unknown.
 */
export async function readRecipeCheckpoints(logDir: string): Promise<Checkpoint[]> {
  const records = await readCheckpoints(logDir);
  const out: Checkpoint[] = [];
  let lastWrittenKept = false;
  for (const r of records) {
    lastWrittenKept = false;
    const weights = r.state_path ?? r.sampler_path;
    const step = r.batch ?? r.step;
    // A record with no weights or no progress counter cannot be resumed from or placed on the run's curve.
    if (weights === undefined || step === undefined) continue;
    out.push({
      name: r.name,
      step,
      path: weights,
      ...(r.sampler_path !== undefined ? { samplerPath: r.sampler_path } : {}),
      ...(r.final || r.name === "final" ? { final: true } : {}),
    });
    lastWrittenKept = true;
  }
  const last = out.at(-1);
  if (last && lastWrittenKept) {
    const written = await stat(path.join(logDir, "checkpoints.jsonl")).catch(() => undefined);
    if (written) last.time = written.mtime.toISOString();
  }
  return out;
}

export async function readRecipeProgress(logDir: string, totalSteps?: number): Promise<TrainerProgress> {
  const progress: TrainerProgress = { rewardHistory: [], stepErrors: [], completed: false };
  const steps = await followMetrics(path.join(logDir, "metrics.jsonl"));
  let doneFraction: number | undefined;
  for (const [step, record] of [...steps].sort(([a], [b]) => a - b)) {
    // Steps are numbered from 0: step 4 logged means five are done.
    progress.step = step + 1;
    doneFraction = record.doneFraction ?? doneFraction;
    if (record.reward !== undefined) {
      progress.rewardMean = record.reward;
      progress.rewardHistory.push({ step: step + 1, value: record.reward });
    }
    progress.loss = record.loss ?? progress.loss;
    if (record.entropy !== undefined) (progress.entropyHistory ??= []).push({ step: step + 1, value: record.entropy });
    if (record.length !== undefined) (progress.lengthHistory ??= []).push({ step: step + 1, value: record.length });
  }
  progress.totalSteps =
    totalSteps ?? (doneFraction && progress.step ? Math.round(progress.step / doneFraction) : undefined);
  // The loop's last checkpoint is named "final" (checkpoint_utils); `final: true` marks it in newer records.
  const final = (await readCheckpoints(logDir)).findLast((c) => c.final || c.name === "final");
  if (final) {
    progress.completed = true;
    progress.finalWeights = final.sampler_path ?? final.state_path;
  }
  return progress;
}

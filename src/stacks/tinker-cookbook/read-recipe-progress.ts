// A cookbook run's progress from its log folder: metrics.jsonl (one record per step) and checkpoints.jsonl.
import { stat } from "node:fs/promises";
import path from "node:path";
import { readTailBytes } from "../../metrics/log-tail.ts";
import type { TrainerProgress } from "../../metrics/trainer-log.ts";
import type { Checkpoint } from "../training-stack.ts";

/** Both files get one short record per step or checkpoint: 8 MiB holds the whole history of any realistic run. */
const TAIL_BYTES = 8 * 1024 * 1024;
/** The mean total reward the RL loop logs for each step's batch (tinker_cookbook/rl/metric_util.py). */
export const REWARD_KEY = "env/all/reward/total";
/** The supervised loop's loss; the RL loop logs no loss of its own. */
const LOSS_KEYS = ["train_mean_nll", "loss"];

export interface CheckpointRecord {
  name: string;
  batch?: number;
  /** A loop-state key some loops write beside (or instead of) batch. */
  step?: number;
  final?: boolean;
  state_path?: string;
  sampler_path?: string;
}

function* jsonLines(text: string): Generator<Record<string, unknown>> {
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const parsed: unknown = JSON.parse(line);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) yield parsed as Record<string, unknown>;
    } catch {
      // A line being written right now, or one damaged: the next read sees it whole.
    }
  }
}

const numberAt = (record: Record<string, unknown>, key: string): number | undefined =>
  typeof record[key] === "number" && Number.isFinite(record[key]) ? record[key] : undefined;

export async function readCheckpoints(logDir: string): Promise<CheckpointRecord[]> {
  const out: CheckpointRecord[] = [];
  for (const r of jsonLines(await readTailBytes(path.join(logDir, "checkpoints.jsonl"), TAIL_BYTES))) {
    if (typeof r.name !== "string") continue;
    out.push({
      name: r.name,
      batch: numberAt(r, "batch"),
      step: numberAt(r, "step"),
      final: r.final === true ? true : undefined,
      state_path: typeof r.state_path === "string" ? r.state_path : undefined,
      sampler_path: typeof r.sampler_path === "string" ? r.sampler_path : undefined,
    });
  }
  return out;
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
  // A resumed run logs again the steps after its last checkpoint: the last record of a step is the one that counts.
  const steps = new Map<number, Record<string, unknown>>();
  for (const record of jsonLines(await readTailBytes(path.join(logDir, "metrics.jsonl"), TAIL_BYTES))) {
    const step = numberAt(record, "step");
    // Evaluation records carry test/ keys only; a training step has the reward or the progress keys.
    if (step === undefined) continue;
    if (numberAt(record, REWARD_KEY) === undefined && numberAt(record, "progress/done_frac") === undefined) continue;
    steps.set(step, record);
  }
  let doneFraction: number | undefined;
  for (const [step, record] of [...steps].sort(([a], [b]) => a - b)) {
    // Steps are numbered from 0: step 4 logged means five are done.
    progress.step = step + 1;
    doneFraction = numberAt(record, "progress/done_frac") ?? doneFraction;
    const reward = numberAt(record, REWARD_KEY);
    if (reward !== undefined) {
      progress.rewardMean = reward;
      progress.rewardHistory.push({ step: step + 1, value: reward });
    }
    for (const key of LOSS_KEYS) progress.loss = numberAt(record, key) ?? progress.loss;
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

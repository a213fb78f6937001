// A run's progress for its digest: the trainer's log first, WandB's summary where the log says nothing, fetched with
// one query per WandB project for all of a pass's runs.
import type { DigestState } from "../../db/digest-state.ts";
import type { RunRow } from "../../db/runs.ts";
import { asRlError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { TrainerProgress } from "../metrics/trainer-log.ts";
import type { Checkpoint, Sample } from "../stacks/training-stack.ts";
import type { WandbClient, WandbRun } from "../metrics/wandb-client.ts";
import { metricsFromSummary } from "../metrics/wandb-metrics.ts";

export interface RunProgress {
  run: RunRow;
  state: DigestState;
  step?: number;
  total?: number;
  reward?: number;
  percentCorrect?: number;
  evalPercentCorrect?: number;
  url?: string;
  rewardHistory: Array<{ step: number; value: number }>;
  /** Where the stack logs them: the policy's entropy and the completions' mean length per step (the watchdog's). */
  entropyHistory?: Array<{ step: number; value: number }>;
  lengthHistory?: Array<{ step: number; value: number }>;
  /** The run's checkpoints, oldest first: read only for a run whose digest is due. */
  checkpoints?: Checkpoint[];
  /** The best and worst rollout of the latest step: read only where the channel's digests show samples. */
  samples?: LatestSamples;
}

/** The latest step's extremes, for the digest's samples line. */
export interface LatestSamples {
  step: number;
  best?: Sample;
  worst?: Sample;
}

const num = (v: number | null | undefined) => (v === null || v === undefined ? undefined : v);

/** One query per WandB project for all its runs (never one per run). */
export async function findWandbRuns(
  active: RunRow[],
  wandb: WandbClient | undefined,
  log: Logger,
): Promise<Map<string, WandbRun>> {
  const found = new Map<string, WandbRun>();
  if (!wandb) return found;
  const byProject = new Map<string, string[]>();
  // The trainer shares its run's group: the server finds the trainers by that list rather than by name patterns.
  const groups = new Map<string, string>();
  for (const r of active)
    if (r.wandbProject && r.wandbRunName) {
      byProject.set(r.wandbProject, [...(byProject.get(r.wandbProject) ?? []), r.wandbRunName]);
      if (r.wandbGroup) groups.set(r.wandbRunName, r.wandbGroup);
    }
  for (const [project, names] of byProject) {
    try {
      for (const [name, run] of await wandb.findTrainerRuns(project, names, groups))
        found.set(`${project}/${name}`, run);
    } catch (err) {
      log.warn("WandB unavailable for digests", { project, err: asRlError(err).message });
    }
  }
  return found;
}

export async function readRunProgress(
  run: RunRow,
  state: DigestState,
  wandb: Map<string, WandbRun>,
  progress: (run: RunRow) => Promise<TrainerProgress>,
): Promise<RunProgress> {
  const trainer = await progress(run);
  const w = wandb.get(`${run.wandbProject}/${run.wandbRunName}`);
  const metrics = w ? metricsFromSummary(w.summary) : undefined;
  return {
    run,
    state,
    step: trainer.step ?? num(metrics?.step),
    total: run.totalSteps ?? trainer.totalSteps,
    reward: trainer.rewardMean ?? num(metrics?.rewardMean),
    percentCorrect: num(metrics?.percentCorrect),
    evalPercentCorrect: num(metrics?.evalPercentCorrect),
    url: w?.url,
    rewardHistory: trainer.rewardHistory,
    ...(trainer.entropyHistory ? { entropyHistory: trainer.entropyHistory } : {}),
    ...(trainer.lengthHistory ? { lengthHistory: trainer.lengthHistory } : {}),
  };
}

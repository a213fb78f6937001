// A manifest run's progress from its metrics file (JSON lines followed from an offset): the step and reward at the
// manifest's key paths. A metrics path with {attempt} gives each attempt its own file (a trainer that truncates its
// log on every start): all of them are read, and a step logged again by a later attempt counts once, as written last.
// Several records of one step (a trainer that logs a step's reward and its loss apart, a validation line at the step a
// run resumed from) make one: a value a later record carries replaces the earlier one, one it lacks is kept.
import { createLogFollower } from "../../metrics/follow-log.ts";
import type { TrainerProgress } from "../../metrics/trainer-log.ts";
import { jsonRecord } from "../json-record.ts";
import { readFile } from "node:fs/promises";
import { globPaths } from "./glob-paths.ts";
import { numberAt, valueAt } from "./key-path.ts";
import type { StackManifest } from "./manifest-schema.ts";

interface StepRecord {
  reward?: number;
  loss?: number;
  entropy?: number;
  length?: number;
}

const SERIES = ["reward", "loss", "entropy", "length"] as const;

function mergeStep(steps: Map<number, StepRecord>, step: number, record: StepRecord): void {
  const before = steps.get(step);
  const merged: StepRecord = {};
  for (const key of SERIES) {
    const value = record[key] ?? before?.[key];
    if (value !== undefined) merged[key] = value;
  }
  steps.set(step, merged);
}

export function createProgressReader(progress: StackManifest["progress"]) {
  const follow = createLogFollower<Map<number, StepRecord>>({
    initial: () => new Map(),
    add(steps, line) {
      const found = stepOf(jsonRecord(line));
      if (found) mergeStep(steps, ...found);
    },
  });
  const offset = 1 - progress.first_step;

  const stepOf = (record: unknown): [number, StepRecord] | undefined => {
    const step = numberAt(record, progress.step);
    if (step === undefined) return undefined;
    const out: StepRecord = {};
    for (const key of SERIES) {
      const at = progress[key];
      const value = at === undefined ? undefined : numberAt(record, at);
      if (value !== undefined) out[key] = value;
    }
    return [step, out];
  };
  /** A JSON document's records (progress.records): read whole, as it is now; none while it is missing or half-written. */
  const documentSteps = async (file: string): Promise<Map<number, StepRecord>> => {
    const steps = new Map<number, StepRecord>();
    let records: unknown;
    try {
      records = valueAt(JSON.parse(await readFile(file, "utf8")), progress.records!);
    } catch {
      return steps;
    }
    for (const record of Array.isArray(records) ? records : []) {
      const found = stepOf(record);
      if (found) mergeStep(steps, ...found);
    }
    return steps;
  };

  /** `files` oldest attempt first (a path with `*` stands for its matches); totalSteps from the run's config. */
  return async function readProgress(files: readonly string[], totalSteps?: number): Promise<TrainerProgress> {
    const merged = new Map<number, StepRecord>();
    for (const pattern of files) {
      const matches = /[*?]/.test(pattern) ? await globPaths("/", pattern) : [pattern];
      for (const file of matches) {
        const steps = progress.records === undefined ? await follow(file) : await documentSteps(file);
        for (const [step, record] of steps) mergeStep(merged, step, record);
      }
    }
    const out: TrainerProgress = { rewardHistory: [], stepErrors: [], completed: false, totalSteps };
    if (progress.entropy !== undefined) out.entropyHistory = [];
    if (progress.length !== undefined) out.lengthHistory = [];
    for (const [step, record] of [...merged].sort(([a], [b]) => a - b)) {
      const done = step + offset;
      out.step = done;
      if (record.reward !== undefined) {
        out.rewardMean = record.reward;
        out.rewardHistory.push({ step: done, value: record.reward });
      }
      out.loss = record.loss ?? out.loss;
      if (record.entropy !== undefined) out.entropyHistory?.push({ step: done, value: record.entropy });
      if (record.length !== undefined) out.lengthHistory?.push({ step: done, value: record.length });
    }
    out.completed = totalSteps !== undefined && out.step !== undefined && out.step >= totalSteps;
    return out;
  };
}

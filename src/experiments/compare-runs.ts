// A comparison of runs: the config fields on which they differ, each one's final (or latest) reward, steps, duration, state and reward curve.
import type { RunRow } from "../../db/runs.ts";
import type { RunReport } from "../training/run-report.ts";
import { trainingMs } from "../values/training-time.ts";

export interface ComparedRun {
  run_id: string;
  status: RunRow["status"];
  /** Only the fields on which the compared runs differ; a field a run does not set is its environment's default (absent here). */
  config: Record<string, unknown>;
  /** The reward mean at the run's last step; final once the run has completed. */
  reward: number | null;
  step: number | null;
  total_steps: number | null;
  duration_ms: number | null;
  curve: Array<{ step: number; value: number }>;
  /** A fork: its parent, the checkpoint's step it started from, and the parent's curve up to that step (the training
   * the fork's weights carry; a curve's step counts the steps done). */
  forked_from?: { run_id: string; step: number; curve: Array<{ step: number; value: number }> };
}

export interface Comparison {
  runs: ComparedRun[];
  /** The config fields on which the runs differ, in the order they first appear. */
  fields: string[];
  /** The run with the highest reward, when any has one. */
  best?: string;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The parent's curve up to a fork's step, or undefined when the run is no fork or its parent is gone. */
async function lineageOf(run: RunRow, report: RunReport): Promise<ComparedRun["forked_from"]> {
  if (!run.parentId || run.forkStep === undefined) return undefined;
  let parent: RunRow;
  try {
    parent = report.find(run.parentId);
  } catch {
    return undefined;
  }
  const step = run.forkStep;
  const curve = (await report.results(parent)).reward_history.filter((p) => p.step <= step);
  return { run_id: parent.id, step, curve };
}

export async function compareRuns(runs: readonly RunRow[], report: RunReport, now: () => number): Promise<Comparison> {
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.config)))];
  const fields = keys.filter((key) => runs.some((r) => !same(r.config[key], runs[0]!.config[key])));
  const compared: ComparedRun[] = [];
  for (const run of runs) {
    const view = await report.results(run);
    const lastPoint = view.reward_history.at(-1);
    const forkedFrom = await lineageOf(run, report);
    compared.push({
      run_id: run.id,
      status: run.status,
      config: Object.fromEntries(fields.filter((f) => Object.hasOwn(run.config, f)).map((f) => [f, run.config[f]])),
      reward: lastPoint?.value ?? view.reward_mean,
      step: view.step,
      total_steps: view.total_steps,
      duration_ms: run.startedAt === undefined && run.trainedMs === 0 ? null : trainingMs(run, now()),
      curve: view.reward_history,
      ...(forkedFrom ? { forked_from: forkedFrom } : {}),
    });
  }
  const ranked = compared
    .filter((r) => r.reward !== null && Number.isFinite(r.reward))
    .sort((a, b) => b.reward! - a.reward!);
  return { runs: compared, fields, ...(ranked[0] ? { best: ranked[0].run_id } : {}) };
}

// WandB facts about one run for status and results: cached a minute, and a failure degrades the answer, never fails it.
import type { RunRow } from "../../db/runs.ts";
import { asRlError } from "../errors.ts";
import { createTtlCache } from "./ttl-cache.ts";
import type { WandbClient } from "./wandb-client.ts";
import { metricsFromSummary, type WandbMetrics } from "./wandb-metrics.ts";

export interface WandbView {
  url?: string;
  state?: string;
  metrics?: WandbMetrics;
  /** Why there is no WandB data (no key, not found yet, an error). */
  note?: string;
}

export interface WandbHistory {
  reward: Array<{ step: number; value: number }>;
  percentCorrect: Array<{ step: number; value: number }>;
}

export function createWandbLookup(client: WandbClient | undefined, now: () => number = Date.now) {
  const cache = createTtlCache<WandbView>({ ttlMs: 60_000, now });

  async function view(run: RunRow): Promise<WandbView> {
    if (!client) return { note: "WandB metrics need WANDB_API_KEY." };
    if (!run.wandbProject || !run.wandbRunName) return { note: "This run has no WandB names." };
    const hit = cache.get(run.id);
    if (hit) return hit;
    let result: WandbView;
    try {
      const trainer = await client.findTrainerRun(run.wandbProject, run.wandbRunName);
      if (!trainer)
        result = { note: `No WandB run named ${run.wandbRunName}-trainer-* yet in project ${run.wandbProject}.` };
      else {
        const envRuns = run.wandbGroup ? await client.findEnvironmentRuns(run.wandbProject, run.wandbGroup) : [];
        result = {
          url: trainer.url,
          state: trainer.state,
          metrics: metricsFromSummary(trainer.summary, envRuns[0]?.summary),
        };
      }
    } catch (err) {
      result = { note: `WandB unavailable: ${asRlError(err).message}` };
    }
    cache.set(run.id, result);
    return result;
  }

  async function history(run: RunRow): Promise<WandbHistory | { note: string }> {
    if (!client || !run.wandbProject || !run.wandbRunName) return { note: "WandB history needs WANDB_API_KEY." };
    try {
      const trainer = await client.findTrainerRun(run.wandbProject, run.wandbRunName);
      if (!trainer) return { note: "No WandB trainer run found." };
      const rows = await client.history(run.wandbProject, trainer.name, ["reward/mean"]);
      const envRuns = run.wandbGroup ? await client.findEnvironmentRuns(run.wandbProject, run.wandbGroup) : [];
      const envRows = envRuns[0]
        ? await client.history(run.wandbProject, envRuns[0].name, ["train/percent_correct"])
        : [];
      const series = (list: Array<Record<string, unknown>>, key: string) =>
        list.flatMap((r) => {
          const k = Object.keys(r).find((x) => x === key || x.endsWith(`_${key}`));
          const v = k === undefined ? undefined : r[k];
          return typeof v === "number" && typeof r._step === "number" ? [{ step: r._step, value: v }] : [];
        });
      return { reward: series(rows, "reward/mean"), percentCorrect: series(envRows, "train/percent_correct") };
    } catch (err) {
      return { note: `WandB unavailable: ${asRlError(err).message}` };
    }
  }

  return { view, history };
}

export type WandbLookup = ReturnType<typeof createWandbLookup>;

// How long a run trained: its earlier attempts' time plus the current attempt's, so a resumed run is not timed from its last start.
import type { RunPatch, RunRow } from "../../db/runs.ts";
import { formatDuration } from "./format-value.ts";

type Timed = Pick<RunRow, "startedAt" | "endedAt" | "trainedMs" | "attempt">;

/** The current attempt's time: from its start to its end, or to now while it runs; 0 before it started. */
export function attemptMs(run: Timed, now: number): number {
  return run.startedAt === undefined ? 0 : Math.max(0, (run.endedAt ?? now) - run.startedAt);
}

/** Every attempt's training time added up (the time between attempts, stopped or queued, is not training). */
export function trainingMs(run: Timed, now: number): number {
  return run.trainedMs + attemptMs(run, now);
}

/** "4m 12s", or "9m 3s in 2 attempts" for a resumed run. */
export function describeTrainingTime(run: Timed, now: number): string {
  const total = formatDuration(trainingMs(run, now));
  return run.attempt > 0 ? `${total} in ${run.attempt + 1} attempts` : total;
}

/** A new attempt begins: the last one's time joins the earlier ones', and the new one is timed from its own start. */
export function carryTrainingTime(run: Timed, now: number): Pick<RunPatch, "trainedMs" | "startedAt" | "endedAt"> {
  return { trainedMs: trainingMs(run, now), startedAt: undefined, endedAt: undefined };
}

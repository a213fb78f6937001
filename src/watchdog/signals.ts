// The watchdog's rules as pure functions of what a run logged: each says whether its signal holds now, why, and up to
// which step the run was still healthy (the checkpoint an alert proposes to fork from).
import type { Sample } from "../stacks/training-stack.ts";
import type { Signal, SignalValues } from "./watchdog-rules.ts";

export interface Point {
  step: number;
  value: number;
}

export interface Finding {
  signal: Signal;
  message: string;
  /** The last step at which the run was still healthy by this rule (a checkpoint at or before it is proposed). */
  healthyUpTo?: number;
}

const shown = (n: number): string => Number(n.toPrecision(4)).toString();

function mean(points: readonly Point[]): number {
  let sum = 0;
  for (const p of points) sum += p.value;
  return sum / points.length;
}

/** The highest point (the earliest of equals); a loop, as a long run's history holds more than a call's arguments. */
function highest(points: readonly Point[]): Point | undefined {
  let best: Point | undefined;
  for (const p of points) if (!best || p.value > best.value) best = p;
  return best;
}

/** The last step before `before` (an index) whose value is at least `floor`. */
function lastAtLeast(points: readonly Point[], before: number, floor: number): number | undefined {
  for (let i = before - 1; i >= 0; i--) if (points[i]!.value >= floor) return points[i]!.step;
  return undefined;
}

/** The highest mean of `n` consecutive points, and the step its window ends at. */
function bestRollingMean(points: readonly Point[], n: number): Point {
  let sum = 0;
  let best: Point | undefined;
  for (let i = 0; i < points.length; i++) {
    sum += points[i]!.value;
    if (i >= n) sum -= points[i - n]!.value;
    if (i >= n - 1 && (!best || sum / n > best.value)) best = { step: points[i]!.step, value: sum / n };
  }
  return best!;
}

/**
 * The mean reward of the last `steps` steps is under `fraction` of the run's best mean over as many steps (for a
 * negative best: as far again below it). Means, not single values: one lucky step is no best to fall from.
 */
export function findCollapse(history: readonly Point[], v: SignalValues): Finding | undefined {
  const n = v.steps!;
  if (history.length <= n) return undefined;
  const best = bestRollingMean(history, n);
  const recent = mean(history.slice(-n));
  const floor = best.value - Math.abs(best.value) * (1 - v.fraction!);
  if (!(recent < floor) || best.value === 0) return undefined;
  const healthyUpTo = lastAtLeast(history, history.length - n, floor);
  return {
    signal: "collapse",
    message: `The mean reward of the last ${n} steps is ${shown(recent)}, under ${Math.round(v.fraction! * 100)}% of the run's best, ${shown(best.value)} (the ${n} steps to step ${best.step}).`,
    ...(healthyUpTo !== undefined ? { healthyUpTo } : {}),
  };
}

/** No step of the last `window` beat the best before them by more than `gain` of that best's size. */
export function findPlateau(history: readonly Point[], v: SignalValues): Finding | undefined {
  const window = v.window!;
  if (history.length <= window) return undefined;
  const before = highest(history.slice(0, -window))!;
  const recent = highest(history.slice(-window))!;
  if (recent.value > before.value + Math.abs(before.value) * v.gain!) return undefined;
  return {
    signal: "plateau",
    message: `No gain in the last ${window} steps: their best, ${shown(recent.value)}, is not above the best before them, ${shown(before.value)} at step ${before.step}.`,
    healthyUpTo: before.step,
  };
}

/** The recent mean entropy is under `fraction` of the early mean. */
export function findEntropyCollapse(series: readonly Point[], v: SignalValues): Finding | undefined {
  const n = v.steps!;
  if (series.length < 2 * n) return undefined;
  const early = mean(series.slice(0, n));
  const recent = mean(series.slice(-n));
  if (!(early > 0) || !(recent < early * v.fraction!)) return undefined;
  const healthyUpTo = lastAtLeast(series, series.length - n, early * v.fraction!);
  return {
    signal: "entropy",
    message: `The policy's entropy fell to ${shown(recent)} (mean of the last ${n} steps), under ${Math.round(v.fraction! * 100)}% of its early ${shown(early)}: it samples nearly the same thing every time.`,
    ...(healthyUpTo !== undefined ? { healthyUpTo } : {}),
  };
}

/** The recent mean completion length is `factor` times longer or shorter than the early mean. */
export function findLengthDrift(series: readonly Point[], v: SignalValues): Finding | undefined {
  const n = v.steps!;
  if (series.length < 2 * n) return undefined;
  const early = mean(series.slice(0, n));
  const recent = mean(series.slice(-n));
  const factor = v.factor!;
  if (!(early > 0)) return undefined;
  const longer = recent > early * factor;
  if (!longer && !(recent < early / factor)) return undefined;
  const inside = (p: Point) => p.value <= early * factor && p.value >= early / factor;
  let healthyUpTo: number | undefined;
  for (let i = series.length - n - 1; i >= 0 && healthyUpTo === undefined; i--)
    if (inside(series[i]!)) healthyUpTo = series[i]!.step;
  return {
    signal: "length",
    message: `Completions grew ${longer ? "longer" : "shorter"}: ${shown(recent)} on average over the last ${n} steps against ${shown(early)} early on (more than ${factor} times ${longer ? "as long" : "shorter"}).`,
    ...(healthyUpTo !== undefined ? { healthyUpTo } : {}),
  };
}

/** When the run's step was first seen at each new step: [step, ms since the epoch], oldest first. */
export type StepSeen = [step: number, at: number];

/** The median time one step took, from the moments new steps were seen; undefined before two intervals. */
export function medianStepMs(seen: readonly StepSeen[]): number | undefined {
  const perStep: number[] = [];
  for (let i = 1; i < seen.length; i++) {
    const steps = seen[i]![0] - seen[i - 1]![0];
    if (steps > 0) perStep.push((seen[i]![1] - seen[i - 1]![1]) / steps);
  }
  if (perStep.length < 2) return undefined;
  perStep.sort((a, b) => a - b);
  const mid = perStep.length >> 1;
  return perStep.length % 2 ? perStep[mid]! : (perStep[mid - 1]! + perStep[mid]!) / 2;
}

/** No new step for `times` the median step time (and at least `minutes`). */
export function findStall(seen: readonly StepSeen[], now: number, v: SignalValues): Finding | undefined {
  const median = medianStepMs(seen);
  const last = seen.at(-1);
  if (median === undefined || !last) return undefined;
  const waited = now - last[1];
  if (waited < Math.max(v.times! * median, v.minutes! * 60_000)) return undefined;
  return {
    signal: "stall",
    message: `No new step for ${Math.round(waited / 60_000)} minutes (still at step ${last[0]}); steps took ${shown(median / 1000)} s each (median), so the trainer may be hung.`,
    healthyUpTo: last[0],
  };
}

/** Every group seen has more than one rollout and all of them scored alike: nothing to learn from the step. */
export function findGroupCollapse(step: number, samples: readonly Sample[]): Finding | undefined {
  const groups = new Map<number, number[]>();
  for (const s of samples) groups.set(s.group, s.groupScores);
  if (groups.size === 0) return undefined;
  for (const scores of groups.values()) if (scores.length < 2 || scores.some((s) => s !== scores[0])) return undefined;
  const alike = new Set([...groups.values()].map((scores) => scores[0]!));
  return {
    signal: "groups",
    message: `Every rollout of each of the ${groups.size} groups of step ${step} scored the same as the rest of its group (${[...alike].map(shown).join(", ")}): no advantage, nothing to learn from.`,
    healthyUpTo: step - 1,
  };
}

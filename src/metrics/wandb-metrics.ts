// Reading the numbers people ask about out of WandB summaries, with the keys the trainer and environment really log.

/** The headline numbers of a run; null when WandB has not (yet) logged them. */
export interface WandbMetrics {
  step: number | null;
  /** Trainer: `reward/mean` (the seed read `train/reward_mean`, which nothing logs). */
  rewardMean: number | null;
  /** Trainer: `train/loss`. */
  loss: number | null;
  /** Environment: `train/percent_correct`, prefixed "{wandb_prepend}_" in serve mode. */
  percentCorrect: number | null;
  /** Environment: `eval/percent_correct`, prefixed the same way. */
  evalPercentCorrect: number | null;
}

export type WandbSummary = Record<string, unknown>;

/**
 * The number logged under key, or under any "{prefix}_key" form (the environment in serve mode prefixes its
 * metrics with "{wandb_prepend}_"). The exact key wins; among prefixed forms the alphabetically first, so the
 * answer does not depend on JSON key order.
 */
export function pickMetric(summary: WandbSummary, key: string): number | null {
  const exact = asNumber(summary[key]);
  if (exact !== null) return exact;
  const suffix = `_${key}`;
  const prefixed = Object.keys(summary)
    .filter((k) => k.endsWith(suffix) && k.length > suffix.length)
    .sort();
  for (const k of prefixed) {
    const value = asNumber(summary[k]);
    if (value !== null) return value;
  }
  return null;
}

/**
 * Headline metrics from a trainer summary. Percent-correct is logged by the environment, so when its run's
 * summary is given it is read there first; the trainer summary is the fallback.
 */
export function metricsFromSummary(summary: WandbSummary, environmentSummary?: WandbSummary): WandbMetrics {
  const fromEnv = (key: string): number | null =>
    (environmentSummary === undefined ? null : pickMetric(environmentSummary, key)) ?? pickMetric(summary, key);
  return {
    step: asNumber(summary["_step"]),
    rewardMean: asNumber(summary["reward/mean"]),
    loss: asNumber(summary["train/loss"]),
    percentCorrect: fromEnv("train/percent_correct"),
    evalPercentCorrect: fromEnv("eval/percent_correct"),
  };
}

/**
 * summaryMetrics arrives as a JSON string. Python's json writes NaN and Infinity bare, which JSON.parse
 * rejects, so those become null rather than losing the whole summary; anything unparseable gives {}.
 */
export function parseSummaryMetrics(text: string | null | undefined): WandbSummary {
  if (!text) return {};
  const attempt = (source: string): WandbSummary | undefined => {
    try {
      const value: unknown = JSON.parse(source);
      return isPlainObject(value) ? value : {};
    } catch {
      return undefined;
    }
  };
  return attempt(text) ?? attempt(text.replace(/([:[,]\s*)(-?Infinity|NaN)(?=\s*[,}\]])/g, "$1null")) ?? {};
}

function asNumber(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

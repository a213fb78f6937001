// A budget's window (day, week, month, in UTC): parsing what a person typed, when the window began and when it resets.
import type { BudgetKind, BudgetPeriod } from "../../db/budgets.ts";
import { RlError } from "../errors.ts";

export const BUDGET_KINDS: readonly BudgetKind[] = ["runs", "concurrent", "steps", "gpu-hours"];
export const BUDGET_PERIODS: readonly BudgetPeriod[] = ["day", "week", "month"];

const KIND_WORDS: Record<string, BudgetKind> = {
  run: "runs",
  runs: "runs",
  concurrent: "concurrent",
  step: "steps",
  steps: "steps",
  "gpu-hour": "gpu-hours",
  "gpu-hours": "gpu-hours",
  gpuhours: "gpu-hours",
};
const PERIOD_WORDS: Record<string, BudgetPeriod> = {
  day: "day",
  daily: "day",
  week: "week",
  weekly: "week",
  month: "month",
  monthly: "month",
};

export function parseBudgetKind(word: string | undefined): BudgetKind {
  const kind = word === undefined ? undefined : KIND_WORDS[word.trim().toLowerCase()];
  if (!kind)
    throw new RlError(
      "USAGE",
      `"${(word ?? "").slice(0, 40)}" is not something a budget counts: use one of ${BUDGET_KINDS.join(", ")}.`,
      { details: { accepted: BUDGET_KINDS } },
    );
  return kind;
}

export function parseBudgetPeriod(word: string | undefined): BudgetPeriod {
  const period = word === undefined ? undefined : PERIOD_WORDS[word.trim().toLowerCase()];
  if (!period)
    throw new RlError(
      "USAGE",
      `"${(word ?? "").slice(0, 40)}" is not a budget window: use per day, per week or per month (the window resets at 00:00 UTC, on Mondays for a week, on the 1st for a month).`,
      { details: { accepted: BUDGET_PERIODS } },
    );
  return period;
}

/** When the window holding `now` began (UTC midnight; Monday for a week; the 1st for a month). */
export function windowStart(period: BudgetPeriod, now: number): number {
  const d = new Date(now);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (period === "day") return day;
  if (period === "week") return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** When the window holding `now` ends and the count starts again. */
export function windowReset(period: BudgetPeriod, now: number): number {
  const start = new Date(windowStart(period, now));
  if (period === "day") return start.getTime() + 86_400_000;
  if (period === "week") return start.getTime() + 7 * 86_400_000;
  return Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
}

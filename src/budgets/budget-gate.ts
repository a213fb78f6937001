// Budgets against what is asked: how much of each limit is left, the estimate line a confirmation shows, and the
// refusal of a start over a limit (checked inside the run's own insert transaction, so racing starts count exactly).
import type { BudgetKind, BudgetPeriod, BudgetRow, BudgetsRepo, BudgetUse } from "../../db/budgets.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import { RlError } from "../errors.ts";
import { personRef } from "../reply.ts";
import { windowReset, windowStart } from "./budget-window.ts";

/** What a start, rerun, sweep or resume would add. */
export interface BudgetEstimate {
  /** "this run", "this sweep", "this resume". */
  what: string;
  /** New runs it creates (a resume continues an existing run: 0). */
  runs: number;
  /** Each run's configured total steps, when the stack knows them. */
  stepsEach?: number;
  /** Steps it adds to the window's count. */
  steps: number;
  /** Runs it adds to the queued and live ones. */
  concurrent: number;
}

export interface BudgetStanding {
  limit: BudgetRow;
  used: number;
  /** What is left before this estimate (never below 0). */
  left: number;
  /** This estimate would pass the limit. */
  over: boolean;
  resetAt: number;
}

export interface BudgetGateDeps {
  budgets: BudgetsRepo;
  /** GPUs per Slurm job (RL_SLURM_GPUS); a job without it counts as one GPU. */
  slurmGpus?: string;
  now: () => number;
}

/** The GPU count in a Slurm --gpus word: "2", "a100:2", "gpu:a100:4"; a word without a count is one GPU. */
export function gpusOf(word: string | undefined): number {
  const count = word?.split(":").at(-1);
  return count && /^\d+$/.test(count) ? Number(count) : 1;
}

const number = (n: number, kind: BudgetKind): string =>
  kind === "gpu-hours"
    ? n.toLocaleString("en-US", { maximumFractionDigits: 1 })
    : Math.round(n).toLocaleString("en-US");

const WINDOW_WORDS: Record<BudgetPeriod, string> = { day: "today", week: "this week", month: "this month" };
const windowWords = (limit: BudgetRow): string =>
  limit.kind === "concurrent" ? "at once" : WINDOW_WORDS[limit.period];
const unitOf = (kind: BudgetKind): string => (kind === "concurrent" ? "runs" : kind);

export const resetWords = (at: number): string => `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** "channel", or the person the limit is for ("you" when they are the one asking). */
function whose(limit: BudgetRow, asker?: string): string {
  if (limit.scope.kind === "channel") return "channel";
  return limit.scope.userId === asker ? "you" : personRef(limit.scope.userId);
}

/** "channel has 12,000 of 40,000 steps left this week". */
export function standingLine(s: BudgetStanding, asker?: string): string {
  const who = whose(s.limit, asker);
  const verb = who === "you" ? "have" : "has";
  return `${who} ${verb} ${number(s.left, s.limit.kind)} of ${number(s.limit.amount, s.limit.kind)} ${unitOf(s.limit.kind)} left ${windowWords(s.limit)}`;
}

/** "this sweep: 8 runs x 2,500 steps". */
export function estimateLine(e: BudgetEstimate): string {
  const steps = e.stepsEach === undefined ? "steps unknown" : `${e.stepsEach.toLocaleString("en-US")} steps`;
  if (e.runs > 1) return `${e.what}: ${e.runs} runs x ${steps}`;
  if (e.runs === 1) return `${e.what}: 1 run, ${steps}`;
  return `${e.what}: ${e.concurrent} run${e.concurrent === 1 ? "" : "s"} back to training (steps already counted when started)`;
}

function addsTo(kind: BudgetKind, e: BudgetEstimate): number {
  if (kind === "runs") return e.runs;
  if (kind === "steps") return e.steps;
  if (kind === "concurrent") return e.concurrent;
  return 0;
}

export function createBudgetGate(deps: BudgetGateDeps) {
  const gpus = gpusOf(deps.slurmGpus);

  const usedOf = (kind: BudgetKind, use: BudgetUse): number => {
    if (kind === "runs") return use.runs;
    if (kind === "steps") return use.steps;
    if (kind === "concurrent") return use.concurrent;
    return (use.slurmMillis / 3_600_000) * gpus;
  };

  /** Each limit on this channel and this person, with what is used and left, and whether the estimate passes it. */
  function standings(channel: ChannelKey, userId: string | undefined, estimate?: BudgetEstimate): BudgetStanding[] {
    const now = deps.now();
    return deps.budgets.limitsFor(channel, userId).map((limit) => {
      const scope = limit.scope.kind === "channel" ? limit.scope : { ...limit.scope, channel };
      const used = usedOf(limit.kind, deps.budgets.usedSince(scope, windowStart(limit.period, now), now));
      const adds = estimate ? addsTo(limit.kind, estimate) : 0;
      // GPU-hours are only known once spent: a start is refused once they are used up.
      const over = estimate
        ? limit.kind === "gpu-hours"
          ? estimate.concurrent > 0 && used >= limit.amount
          : adds > 0 && used + adds > limit.amount
        : false;
      return {
        limit,
        used,
        left: Math.max(0, limit.amount - used),
        over,
        resetAt: limit.kind === "concurrent" ? now : windowReset(limit.period, now),
      };
    });
  }

  return {
    standings,
    /** Set (or replace) one limit. */
    set: (row: BudgetRow): void => deps.budgets.set(row),
    /** Remove a limit; how many were removed. */
    clear: (...args: Parameters<BudgetsRepo["clear"]>): number => deps.budgets.clear(...args),

    /** The confirmation's budget line: the estimate against what is left, or undefined when no limit applies. */
    describe(
      channel: ChannelKey,
      userId: string,
      estimate: BudgetEstimate,
    ): { text: string; over: BudgetStanding[] } | undefined {
      const all = standings(channel, userId, estimate);
      if (all.length === 0) return undefined;
      return {
        text: `${estimateLine(estimate)}; ${all.map((s) => standingLine(s, userId)).join("; ")}`,
        over: all.filter((s) => s.over),
      };
    },

    /**
     * Refuses the estimate over any limit, naming what is left and when it resets; an override (an admin's
     * --over-budget) lets it through and returns the limits it passes, for the audit log. Call inside the
     * transaction that inserts the run.
     */
    enforce(channel: ChannelKey, userId: string, estimate: BudgetEstimate, override = false): BudgetStanding[] {
      const over = standings(channel, userId, estimate).filter((s) => s.over);
      if (over.length === 0 || override) return over;
      throw overBudgetError(estimate, over, userId);
    },
  };
}

/** A standing as --json and the LLM read it. */
export function standingData(s: BudgetStanding): Record<string, unknown> {
  return {
    scope: s.limit.scope.kind,
    ...(s.limit.scope.kind === "person" ? { user: s.limit.scope.userId } : {}),
    kind: s.limit.kind,
    period: s.limit.period,
    limit: s.limit.amount,
    used: s.used,
    left: s.left,
    resets_at: s.limit.kind === "concurrent" ? null : new Date(s.resetAt).toISOString(),
  };
}

export function overBudgetError(estimate: BudgetEstimate, over: BudgetStanding[], asker: string): RlError {
  const lines = over.map(
    (s) =>
      `${standingLine(s, asker)}${s.limit.kind === "concurrent" ? " (until one ends)" : ` (resets ${resetWords(s.resetAt)})`}`,
  );
  return new RlError(
    "OVER_BUDGET",
    `Over budget: ${estimateLine(estimate)}; ${lines.join("; ")}. Nothing was started. An admin can start it anyway with --over-budget.`,
    {
      details: {
        over: over.map(standingData),
      },
    },
  );
}

export type BudgetGate = ReturnType<typeof createBudgetGate>;

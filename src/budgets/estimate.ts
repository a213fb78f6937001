// The estimates a sweep and a resume put against the budgets (a single run's is made where it is created).
import type { BudgetEstimate } from "./budget-gate.ts";

/** A sweep's runs with each one's total steps (undefined where its stack does not know them). */
export function sweepEstimate(stepsEach: ReadonlyArray<number | undefined>): BudgetEstimate {
  const known = stepsEach.filter((s): s is number => s !== undefined);
  const same = known.length === stepsEach.length && known.every((s) => s === known[0]);
  return {
    what: "this sweep",
    runs: stepsEach.length,
    stepsEach: same ? known[0] : undefined,
    steps: known.reduce((a, b) => a + b, 0),
    concurrent: stepsEach.length,
  };
}

/** A resumed run was counted (runs, steps) when it started: it only comes back to the queued and live runs. */
export const RESUME_ESTIMATE: BudgetEstimate = { what: "this resume", runs: 0, steps: 0, concurrent: 1 };

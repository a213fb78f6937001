// Wiring of spending limits: the budget gate over the budgets table, checked as runs are created.
import { createBudgetsRepo } from "../../db/budgets.ts";
import type { Db } from "../../db/open-database.ts";
import type { Config } from "../config.ts";
import type { FeatureSlice } from "../feature-slice.ts";
import { createBudgetGate, type BudgetGate } from "./budget-gate.ts";

export function wireBudgets(
  config: Config,
  needs: { db: Db; now: () => number },
): FeatureSlice<{ budgets: BudgetGate }> {
  const budgets = createBudgetGate({
    budgets: createBudgetsRepo(needs.db),
    slurmGpus: config.slurm.gpus,
    now: needs.now,
  });
  return { services: { budgets } };
}

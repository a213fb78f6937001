// A start's budget in its confirmation: the estimate against what is left, refused over a limit unless an admin
// said --over-budget (the run's own insert checks again, exactly, when it is confirmed).
import { z } from "zod";
import { overBudgetError, type BudgetEstimate } from "../src/budgets/budget-gate.ts";
import { RlError } from "../src/errors.ts";
import { accessOf } from "../src/policy.ts";
import type { ReplyField } from "../src/reply.ts";
import type { CommandContext } from "./types.ts";

export const overBudgetArg = z
  .boolean()
  .optional()
  .describe("Admins only: start even over a budget (recorded in the audit log)");

const FLAG = /(^|\s)--over-budget(?=\s|$)/;

/** A --over-budget written among a rest-of-line's words (a sweep's grid, a rerun's changes), taken out of them. */
export function takeOverBudgetFlag(text: string | undefined): { text: string | undefined; over: boolean } {
  if (text === undefined || !FLAG.test(text)) return { text, over: false };
  return { text: text.replace(FLAG, " ").trim() || undefined, over: true };
}

/** Only an admin may start over a budget. */
export function checkOverBudgetFlag(ctx: CommandContext<"config">, over: boolean | undefined): boolean {
  if (!over) return false;
  if (accessOf(ctx.services.config.policy, ctx.channel, ctx.user).role !== "admin")
    throw new RlError("FORBIDDEN", "Only an admin may start over a budget (--over-budget). See /rl budget.");
  return true;
}

/**
 * The confirmation's Budget field ("this sweep: 8 runs x 2,500 steps; channel has 12,000 of 40,000 steps left this
 * week"), none when no limit applies; refused at once over a limit unless overridden.
 */
export function budgetField(
  ctx: CommandContext<"budgets">,
  estimate: BudgetEstimate,
  override: boolean,
  person = ctx.user.id,
): ReplyField[] {
  const standing = ctx.services.budgets.describe(ctx.channel, person, estimate);
  if (!standing) return [];
  if (standing.over.length > 0 && !override) throw overBudgetError(estimate, standing.over, ctx.user.id);
  const note = standing.over.length > 0 ? " — over budget, started anyway (--over-budget, audited)" : "";
  return [{ label: "Budget", value: `${standing.text}${note}` }];
}

// Which part of RL_APPROVE_WHEN a start matches, from what the start will do: its environment, steps and runs.
import type { ApprovalRule } from "../approval-settings.ts";

/** What a start will do; a number the bot could not tell in advance is undefined. */
export interface StartFacts {
  environment?: string;
  /** The most training steps of any one of its runs. */
  steps?: number;
  /** How many runs it starts (a sweep's combinations; 1 otherwise). */
  runs: number;
}

/**
 * The first rule the start matches, written as in the setting ("steps>=1000"), or undefined when none does. A steps
 * limit the bot cannot check (the steps are not known before the run) counts as matched: unknown is not small.
 */
export function matchApprovalRule(rules: readonly ApprovalRule[], facts: StartFacts): string | undefined {
  for (const rule of rules) {
    if (rule.kind === "always") return "always";
    if (rule.kind === "steps" && (facts.steps === undefined || facts.steps >= rule.min))
      return facts.steps === undefined ? `steps>=${rule.min} (steps not known in advance)` : `steps>=${rule.min}`;
    if (rule.kind === "runs" && facts.runs >= rule.min) return `runs>=${rule.min}`;
    if (rule.kind === "env" && facts.environment === rule.name) return `env=${rule.name}`;
  }
  return undefined;
}

// /rl rerun <run> [field=value ...]: a new run with that run's environment and config, with changes; asks to confirm.
import { z } from "zod";
import type { AppliedChanges } from "../src/environment-ops.ts";
import { usageOf } from "./arg-specs.ts";
import { describeChanges } from "./describe-changes.ts";
import { parseAssignments } from "./parse-assignments.ts";
import { componentList } from "../src/stacks/describe-stack.ts";
import { startReply } from "./start-reply.ts";
import { budgetField, checkOverBudgetFlag, overBudgetArg, takeOverBudgetFlag } from "./budget-check.ts";
import { defineCommand, type AnyCommand, type CommandContext } from "./types.ts";

const args = z.object({
  run: z.string().min(1).max(64).describe("Run id to run again"),
  changes: z
    .string()
    .max(4000)
    .optional()
    .describe("Changes as field=value words, e.g. temperature=0.5 seed=3 (default: none)"),
  over_budget: overBudgetArg,
});

async function planRerun(
  command: AnyCommand,
  input: z.output<typeof args>,
  ctx: CommandContext<"report" | "env" | "config">,
): Promise<{ base: string; applied: AppliedChanges; overBudget: boolean }> {
  const base = ctx.services.report.find(input.run);
  const flag = takeOverBudgetFlag(input.changes);
  const applied = await ctx.services.env.applyChanges(
    base.environment,
    base.config,
    parseAssignments(flag.text, usageOf(command)),
  );
  return { base: base.id, applied, overBudget: checkOverBudgetFlag(ctx, flag.over || input.over_budget) };
}

const rerun: AnyCommand = defineCommand({
  name: "rerun",
  summary: "Run a run again, with changes",
  description:
    "Start a new training run with another run's environment and config (locked infrastructure fields on top), optionally changing fields given as field=value words; each value is parsed and checked as /rl set does, and the channel's own config is left as it is. Returns the new run id and status. Needs confirmation by the person, whose prompt lists the differences.",
  toolName: "rl_rerun_training",
  args,
  positional: ["run", "changes"],
  restOfLine: true,
  permission: "operate",
  uses: ["budgets", "config", "env", "manager", "redact", "report"],
  slow: true,
  confirm: true,
  mutates: true,
  examples: ["/rl rerun ab12cd34", "/rl rerun ab12cd34 temperature=0.5 seed=3"],
  async preview(input, ctx) {
    const { base, applied, overBudget } = await planRerun(rerun, input, ctx);
    const stepsEach = ctx.services.manager.currentStack.stepsOf(
      await ctx.services.env.effectiveValues(applied.environment, applied.values),
    );
    const estimate = { what: "this run", runs: 1, stepsEach, steps: stepsEach ?? 0, concurrent: 1 };
    return {
      title: `Run ${applied.environment} again, as run ${base}?`,
      fields: [
        { label: "Environment", value: applied.environment },
        { label: "Config of", value: `run ${base}` },
        {
          label: "Differences",
          value: describeChanges(applied.changes),
        },
        ...budgetField(ctx, estimate, overBudget),
      ],
      data: { rerun_of: base, environment: applied.environment, changes: applied.changes },
    };
  },
  async run(input, ctx) {
    const { base, applied, overBudget } = await planRerun(rerun, input, ctx);
    await ctx.progress?.(`Starting ${componentList(ctx.services.manager.currentStack)}…`);
    const run = await ctx.services.manager.start({
      channel: ctx.channel,
      thread: ctx.thread,
      userId: ctx.user.id,
      via: ctx.via,
      progress: ctx.progress,
      from: { environment: applied.environment, values: applied.values },
      overBudget,
    });
    const reply = await startReply(run, ctx);
    return { ...reply, data: { ...(reply.data as object), rerun_of: base, changes: applied.changes } };
  },
});

export default rerun;

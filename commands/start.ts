// /rl start: train the channel's environment with its config; asks to confirm, then reports running or why not.
import { z } from "zod";
import { currentText } from "./field-value-text.ts";
import { startReply } from "./start-reply.ts";
import { formatValue } from "../src/values/format-value.ts";
import { componentList } from "../src/stacks/describe-stack.ts";
import { budgetField, checkOverBudgetFlag, overBudgetArg } from "./budget-check.ts";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "start",
  summary: "Start a training run",
  description:
    "Start a training run of this channel's selected environment with its config (locked infrastructure fields on top). Starts the run's processes (on atropos-tinker the trajectory API, the trainer and the environment; on tinker-cookbook the recipe's one process), waits until each is ready, and returns the run id and status (running, queued when another run holds the training ports, or failed with the reason). Needs confirmation by the person.",
  toolName: "rl_start_training",
  args: z.object({ over_budget: overBudgetArg }),
  permission: "operate",
  uses: ["budgets", "config", "env", "manager", "redact", "report"],
  slow: true,
  confirm: true,
  mutates: true,
  async preview(args, ctx) {
    // Asking to confirm a start that cannot happen would waste the person's click: refuse with the reason now.
    await ctx.services.env.startableEnvironment(ctx.channel);
    const view = await ctx.services.env.getConfig(ctx.channel);
    const changed = view.configurable_fields.filter((f) => f.changed);
    const all = [...view.configurable_fields, ...view.locked_fields];
    const stepsField = all.find((f) => f.name === "total_steps");
    // Values the trainer imposes at run time (batch_size), shown as what the run will use.
    const imposed = all.filter((f) => f.run_time !== undefined);
    const runName = all.find((f) => f.name === "tinker.wandb_run_name") ?? all.find((f) => f.name === "wandb_name");
    const wandbRun = runName?.run_value ?? (runName ? formatValue(runName.current_value) : undefined);
    const stepsEach = ctx.services.manager.currentStack.stepsOf(
      Object.fromEntries(all.map((f) => [f.name, f.current_value])),
    );
    const estimate = { what: "this run", runs: 1, stepsEach, steps: stepsEach ?? 0, concurrent: 1 };
    const budget = budgetField(ctx, estimate, checkOverBudgetFlag(ctx, args.over_budget));
    return {
      title: `Start training ${view.environment}?`,
      fields: [
        { label: "Environment", value: view.environment },
        { label: "Steps", value: stepsField ? currentText(stepsField) : formatValue(undefined) },
        { label: "WandB run", value: wandbRun ?? "as the trainer names it" },
        {
          label: "Changed fields",
          value: changed.map((f) => `${f.name} = ${formatValue(f.current_value)}`).join(", ") || "none (defaults)",
        },
        ...(imposed.length
          ? [{ label: "At run time", value: imposed.map((f) => `${f.name} ${currentText(f)}`).join("\n") }]
          : []),
        ...budget,
      ],
    };
  },
  async run(args, ctx) {
    await ctx.progress?.(`Starting ${componentList(ctx.services.manager.currentStack)}…`);
    const run = await ctx.services.manager.start({
      channel: ctx.channel,
      thread: ctx.thread,
      userId: ctx.user.id,
      via: ctx.via,
      progress: ctx.progress,
      overBudget: checkOverBudgetFlag(ctx, args.over_budget),
    });
    return startReply(run, ctx);
  },
});

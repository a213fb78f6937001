// /rl sweep field=v1,v2 [...] [--max N]: one run per combination of the channel's config with those values; asks once.
import { z } from "zod";
import { RlError } from "../src/errors.ts";
import { expandGrid, gridSize, type GridAxis } from "../src/experiments/expand-grid.ts";
import { usageOf } from "./arg-specs.ts";
import { formatValue } from "../src/values/format-value.ts";
import { parseSweepGrid } from "./parse-sweep-grid.ts";
import { budgetField, checkOverBudgetFlag, overBudgetArg, takeOverBudgetFlag } from "./budget-check.ts";
import { sweepEstimate } from "../src/budgets/estimate.ts";
import { sweepBoardReply } from "../src/experiments/sweep-board-reply.ts";
import { defineCommand, type AnyCommand, type CommandContext } from "./types.ts";

const args = z.object({
  grid: z
    .string()
    .min(1)
    .max(4000)
    .describe("Fields with their values, as field=v1,v2 words, e.g. temperature=0.3,0.7 seed=1,2"),
  max: z
    .number()
    .int()
    .min(1)
    .max(256)
    .optional()
    .describe("The most runs this sweep may start (at most RL_SWEEP_MAX_RUNS)"),
  over_budget: overBudgetArg,
});

interface SweepPlan {
  environment: string;
  axes: GridAxis[];
  combinations: Array<Record<string, unknown>>;
  base: Record<string, unknown>;
  cap: number;
  overBudget: boolean;
}

const describeCombo = (combo: Record<string, unknown>): string =>
  Object.entries(combo)
    .map(([field, value]) => `${field}=${formatValue(value)}`)
    .join(" ");

/** The grid checked field by field and value by value as /rl set would, and sized against the cap before anything is built. */
async function planSweep(
  command: AnyCommand,
  input: z.output<typeof args>,
  ctx: CommandContext<"config" | "env">,
): Promise<SweepPlan> {
  const usage = usageOf(command);
  const flag = takeOverBudgetFlag(input.grid);
  const raw = parseSweepGrid(flag.text ?? "", usage);
  const limit = ctx.services.config.sweepMaxRuns;
  const asked = input.max ?? raw.max;
  if (asked !== undefined && asked > limit)
    throw new RlError(
      "INVALID_VALUE",
      `--max ${asked} is more than this bot allows for one sweep (${limit}, RL_SWEEP_MAX_RUNS).`,
    );
  const cap = asked ?? limit;
  const { environment, values: base } = await ctx.services.env.channelValues(ctx.channel);
  const axes: GridAxis[] = [];
  for (const axis of raw.axes) {
    const parsed = [];
    let field = axis.field;
    for (const value of axis.values) {
      const applied = await ctx.services.env.applyChanges(environment, {}, [{ field: axis.field, value }]);
      field = applied.changes[0]!.field;
      parsed.push(applied.changes[0]!.to);
    }
    if (axes.some((a) => a.field === field))
      throw new RlError(
        "USAGE",
        `${field} is given twice; give each field once, with all its values.\nUsage: ${usage}`,
      );
    axes.push({ field, values: parsed });
  }
  // A field the trainer must be given (verl's ???) is either the channel's or one every combination sets.
  await ctx.services.env.startableEnvironment(
    ctx.channel,
    axes.map((a) => a.field),
  );
  const size = gridSize(axes);
  if (size > cap) {
    throw new RlError(
      "INVALID_VALUE",
      `This grid has ${size} combinations (${axes.map((a) => `${a.values.length} ${a.field}`).join(" × ")}); a sweep may start at most ${cap}${asked !== undefined ? " (--max)" : " (RL_SWEEP_MAX_RUNS)"}. Give fewer values. Nothing was started.`,
      { details: { combinations: size, max: cap } },
    );
  }
  const overBudget = checkOverBudgetFlag(ctx, flag.over || input.over_budget);
  return { environment, axes, combinations: expandGrid(axes), base, cap, overBudget };
}

const sweep: AnyCommand = defineCommand({
  name: "sweep",
  summary: "Start a sweep: one run per combination",
  description:
    "Start a sweep of this channel's selected environment: one training run for every combination of the given field values (field=v1,v2 words) on top of the channel's config. Each value is parsed and checked as /rl set does; the number of runs is capped by RL_SWEEP_MAX_RUNS (or a lower --max). The runs share a sweep id, queue and start one after another as RL_MAX_CONCURRENT_RUNS allows (on Slurm: one job array, a task per run); the sweep's message is edited as they move (queued, step and reward, done), failures post in the sweep's thread, and a comparison is posted there when the last one ends. Needs one confirmation by the person, whose prompt lists every combination.",
  toolName: "rl_start_sweep",
  args,
  positional: ["grid"],
  restOfLine: true,
  permission: "operate",
  uses: ["budgets", "config", "env", "manager"],
  slow: true,
  confirm: true,
  mutates: true,
  examples: ["/rl sweep temperature=0.3,0.7", "/rl sweep temperature=0.3,0.7 seed=1,2 --max 4"],
  async preview(input, ctx) {
    const plan = await planSweep(sweep, input, ctx);
    const { maxConcurrentRuns, backend } = ctx.services.config;
    const steps = [];
    for (const combo of plan.combinations)
      steps.push(
        ctx.services.manager.currentStack.stepsOf(
          await ctx.services.env.effectiveValues(plan.environment, { ...plan.base, ...combo }),
        ),
      );
    const budget = budgetField(ctx, sweepEstimate(steps), plan.overBudget);
    return {
      title: `Start a sweep of ${plan.environment}: ${plan.combinations.length} runs?`,
      fields: [
        { label: "Environment", value: plan.environment },
        { label: "Runs", value: `${plan.combinations.length} (at most ${plan.cap})` },
        {
          label: "How",
          value:
            backend === "slurm"
              ? "one Slurm job array, a task per run"
              : maxConcurrentRuns === 1
                ? "one after another"
                : `${maxConcurrentRuns} at a time`,
        },
        ...budget,
      ],
      blocks: [
        {
          kind: "text",
          title: "Combinations",
          content: plan.combinations.map((c, i) => `${i + 1}. ${describeCombo(c)}`).join("\n"),
        },
      ],
      data: { environment: plan.environment, combinations: plan.combinations },
    };
  },
  async run(input, ctx) {
    const plan = await planSweep(sweep, input, ctx);
    const { sweep: row, runs } = await ctx.services.manager.startSweep({
      channel: ctx.channel,
      thread: ctx.thread,
      userId: ctx.user.id,
      via: ctx.via,
      environment: plan.environment,
      grid: plan.axes,
      combinations: plan.combinations.map((combo) => ({ ...plan.base, ...combo })),
      overBudget: plan.overBudget,
    });
    // The sweep's message as it first reads: edited from then on as its runs move (sweep-board.ts).
    return {
      ...sweepBoardReply(row, runs),
      delivery: { anchorRunId: runs[0]?.id },
      data: {
        sweep_id: row.id,
        environment: row.environment,
        runs: runs.map((run, i) => ({ run_id: run.id, status: run.status, changes: plan.combinations[i] })),
      },
    };
  },
});

export default sweep;

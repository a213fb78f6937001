// /rl resume <run|sweep>: a stopped, failed or lost run (or each of a sweep's that can) continues from its last
// checkpoint as the same run; asks to confirm.
import { z } from "zod";
import type { RunRow } from "../db/runs.ts";
import { RlError } from "../src/errors.ts";
import type { Checkpoint } from "../src/stacks/training-stack.ts";
import { resumePoint } from "../src/training/run-manager/resume-run.ts";
import { personRef } from "../src/reply.ts";
import { checkOwnership } from "./check-ownership.ts";
import { startReply } from "./start-reply.ts";
import { RESUME_ESTIMATE } from "../src/budgets/estimate.ts";
import { budgetField, checkOverBudgetFlag, overBudgetArg } from "./budget-check.ts";
import { defineCommand, type CommandContext } from "./types.ts";

interface SweepRunPlan {
  run: RunRow;
  checkpoint?: Checkpoint;
  reason?: string;
}

/** Each run of the sweep with the checkpoint it would resume from, or why it would not. */
async function sweepPlan(ctx: CommandContext<"manager" | "runs">, sweepId: string): Promise<SweepRunPlan[]> {
  const out: SweepRunPlan[] = [];
  for (const run of ctx.services.runs.listBySweep(sweepId)) {
    try {
      out.push({ run, checkpoint: await resumePoint(ctx.services.manager.stackOf(run), run) });
    } catch (err) {
      out.push({ run, reason: (err as Error).message });
    }
  }
  return out;
}

const lineOf = (p: SweepRunPlan): string =>
  p.checkpoint
    ? `Run ${p.run.id}: from checkpoint ${p.checkpoint.name} (step ${p.checkpoint.step})`
    : `Run ${p.run.id}: ${p.run.status}, not resumed`;

export default defineCommand({
  name: "resume",
  summary: "Resume a stopped or failed run from its last checkpoint",
  description:
    "Continue a stopped, failed or lost training run from its last checkpoint, as the same run (same id, log folder, WandB run name and thread); its status history is kept and the thread hears it resumed. Refused with the reason when the run is live or completed, has no checkpoint, or its training stack cannot resume (atropos-tinker's trainer always starts at step 0: use /rl rerun). Only the person who started it or an admin may. Needs confirmation by the person.",
  toolName: "rl_resume_training",
  args: z.object({
    run: z.string().min(1).max(64).describe("Run id to resume, or a sweep id to resume its runs that can be"),
    over_budget: overBudgetArg,
  }),
  positional: ["run"],
  permission: "operate",
  uses: ["budgets", "config", "manager", "redact", "report", "runs", "sweeps"],
  slow: true,
  confirm: true,
  mutates: true,
  examples: ["/rl resume ab12cd34"],
  async preview({ run: id, over_budget }, ctx) {
    const overBudget = checkOverBudgetFlag(ctx, over_budget);
    const sweep = ctx.services.sweeps.get(id);
    if (sweep) {
      checkOwnership(sweep, ctx, "resume", "Sweep");
      const plan = await sweepPlan(ctx, sweep.id);
      if (plan.every((p) => !p.checkpoint))
        throw new RlError("CONFLICT", `No run of sweep ${sweep.id} can be resumed:\n${plan.map(lineOf).join("\n")}`);
      const count = plan.filter((p) => p.checkpoint).length;
      return {
        title: `Resume sweep ${sweep.id} (${sweep.environment}): ${count} of its ${plan.length} runs?`,
        text: plan.map(lineOf).join("\n"),
        fields: budgetField(
          ctx,
          { ...RESUME_ESTIMATE, what: "this sweep's resume", concurrent: count },
          overBudget,
          sweep.createdBy,
        ),
      };
    }
    const run = ctx.services.report.find(id);
    checkOwnership(run, ctx, "resume");
    const checkpoint = await resumePoint(ctx.services.manager.stackOf(run), run);
    return {
      title: `Resume run ${run.id} (${run.environment}) from checkpoint ${checkpoint.name}?`,
      text: `Started by ${personRef(run.createdBy)}; now ${run.status}${run.error ? ` (${run.error})` : ""}.`,
      fields: [
        { label: "Checkpoint", value: `${checkpoint.name}, step ${checkpoint.step}` },
        { label: "Path", value: checkpoint.path },
        ...budgetField(ctx, RESUME_ESTIMATE, overBudget, run.createdBy),
      ],
      data: { run_id: run.id, checkpoint: checkpoint.name, step: checkpoint.step },
    };
  },
  async run({ run: id, over_budget }, ctx) {
    const overBudget = checkOverBudgetFlag(ctx, over_budget);
    const sweep = ctx.services.sweeps.get(id);
    if (sweep) {
      checkOwnership(sweep, ctx, "resume", "Sweep");
      const by = ctx.user.name ?? ctx.user.id;
      const fields = [];
      for (const p of await sweepPlan(ctx, sweep.id)) {
        if (!p.checkpoint) {
          fields.push({ label: `Run ${p.run.id}`, value: `not resumed: ${p.reason}` });
          continue;
        }
        const resumed = await ctx.services.manager
          .resume(p.run.id, by, undefined, { overBudget })
          .then((r) => `${r.run.status}, from checkpoint ${r.checkpoint.name} (step ${r.checkpoint.step})`)
          .catch((err: unknown) => `not resumed: ${(err as Error).message}`);
        fields.push({ label: `Run ${p.run.id}`, value: resumed });
      }
      return {
        title: `🔁 Sweep ${sweep.id} (${sweep.environment}): resumed`,
        text: `Resumed by ${by}; runs beyond RL_MAX_CONCURRENT_RUNS wait in the queue.`,
        fields,
        data: { sweep_id: sweep.id, runs: fields.map((f) => ({ run: f.label.slice(4), outcome: f.value })) },
      };
    }
    const found = ctx.services.report.find(id);
    checkOwnership(found, ctx, "resume");
    const { run, checkpoint } = await ctx.services.manager.resume(
      found.id,
      ctx.user.name ?? ctx.user.id,
      ctx.progress,
      {
        overBudget,
      },
    );
    const reply = await startReply(run, ctx);
    return {
      ...reply,
      text: `Resumed from checkpoint ${checkpoint.name} (step ${checkpoint.step}). ${reply.text ?? ""}`.trim(),
      data: { ...(reply.data as object), resumed_from: checkpoint.name, resumed_step: checkpoint.step },
    };
  },
});

// /rl stop <run>: stop a run (env, then trainer, then API); its starter and admins may, others are refused.
import { z } from "zod";
import { personRef } from "../src/reply.ts";
import { statusLine } from "./run-reply.ts";
import { checkOwnership } from "./check-ownership.ts";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "stop",
  summary: "Stop a training run or a sweep",
  description:
    "Stop a training run: its processes in its own stack's order (on atropos-tinker the environment, then the trainer, then the trajectory API; on tinker-cookbook the recipe's one process), each given a grace period before being killed. Given a sweep id, stops every run of the sweep (queued ones are cancelled). Only the person who started it or an admin may. Returns the final status. Needs confirmation by the person.",
  toolName: "rl_stop_training",
  args: z.object({ run: z.string().min(1).max(64).describe("Run id, or a sweep id to stop all its runs") }),
  positional: ["run"],
  permission: "operate",
  uses: ["config", "manager", "report", "runs", "sweeps"],
  confirm: true,
  mutates: true,
  async preview({ run: id }, ctx) {
    const sweep = ctx.services.sweeps.get(id);
    if (sweep) {
      checkOwnership(sweep, ctx, "stop", "Sweep");
      const runs = ctx.services.runs.listBySweep(sweep.id);
      const active = runs.filter((r) => ctx.services.manager.isLive(r) || r.status === "queued");
      return {
        title: `Stop sweep ${sweep.id} (${sweep.environment}): ${active.length} of its ${runs.length} runs?`,
        text: `Started by ${personRef(sweep.createdBy)}. Queued runs are cancelled; running ones are stopped.`,
        fields: active.map((r) => ({ label: `Run ${r.id}`, value: r.status })),
      };
    }
    const run = ctx.services.report.find(id);
    checkOwnership(run, ctx, "stop");
    return {
      title: `Stop run ${run.id} (${run.environment})?`,
      text: `Started by ${personRef(run.createdBy)}; now ${run.status}.`,
    };
  },
  async run({ run: id }, ctx) {
    const sweep = ctx.services.sweeps.get(id);
    if (sweep) {
      checkOwnership(sweep, ctx, "stop", "Sweep");
      const runs = await ctx.services.manager.stopSweep(sweep.id, ctx.user.name ?? ctx.user.id);
      return {
        title: `⏹ Sweep ${sweep.id} (${sweep.environment}): stopped`,
        text: `Stopped by ${personRef(ctx.user.id)}.`,
        fields: runs.map((r) => ({ label: `Run ${r.id}`, value: r.status })),
        data: { sweep_id: sweep.id, runs: runs.map((r) => ({ run_id: r.id, status: r.status })) },
      };
    }
    const found = ctx.services.report.find(id);
    checkOwnership(found, ctx, "stop");
    const run = await ctx.services.manager.stop(found.id, ctx.user.name ?? ctx.user.id);
    return {
      title: statusLine(run),
      // Named as the starter is (personRef), so one person reads the same in both lines.
      text: `Stopped by ${personRef(ctx.user.id)}.`,
      data: { run_id: run.id, status: run.status },
    };
  },
});

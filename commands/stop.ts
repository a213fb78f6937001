// /rl stop <run>: stop a run (env, then trainer, then API); its starter and admins may, others are refused.
import { z } from "zod";
import { RlError } from "../src/errors.ts";
import { roleOf } from "../src/policy.ts";
import { statusLine } from "./run-reply.ts";
import { defineCommand, type CommandContext } from "./types.ts";

function checkOwnership(runId: string, ctx: CommandContext): void {
  const run = ctx.services.report.find(runId);
  const role = roleOf(ctx.services.config.policy, ctx.channel, { id: ctx.user.id, roles: ctx.user.roles });
  if (role !== "admin" && run.createdBy !== ctx.user.id) {
    throw new RlError("FORBIDDEN", `Run ${run.id} was started by ${run.createdBy}; only they or an admin (${ctx.services.config.policy.admins.join(", ") || "none configured: set RL_ADMINS"}) may stop it.`);
  }
}

export default defineCommand({
  name: "stop",
  summary: "Stop a training run",
  description:
    "Stop a training run: the environment, then the trainer, then the trajectory API, each given a grace period before being killed. Only the person who started it or an admin may. Returns the run's final status. Needs confirmation by the person.",
  toolName: "rl_stop_training",
  args: z.object({ run: z.string().min(1).max(64).describe("Run id") }),
  positional: ["run"],
  permission: "operate",
  confirm: true,
  mutates: true,
  async preview({ run: id }, ctx) {
    const run = ctx.services.report.find(id);
    checkOwnership(run.id, ctx);
    return { title: `Stop run ${run.id} (${run.environment})?`, text: `Started by ${run.createdBy}; now ${run.status}.` };
  },
  async run({ run: id }, ctx) {
    const found = ctx.services.report.find(id);
    checkOwnership(found.id, ctx);
    const run = await ctx.services.manager.stop(found.id, ctx.user.name ?? ctx.user.id);
    return { title: statusLine(run), text: `Stopped by ${run.stoppedBy ?? ctx.user.id}.`, data: { run_id: run.id, status: run.status } };
  },
});

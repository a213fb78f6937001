// /rl stop <run>: stop a run (env, then trainer, then API); its starter and admins may, others are refused.
import { z } from "zod";
import type { RunRow } from "../db/runs.ts";
import { RlError } from "../src/errors.ts";
import { accessOf, holdersOf } from "../src/policy.ts";
import { personRef } from "../src/reply.ts";
import { statusLine } from "./run-reply.ts";
import { defineCommand, type CommandContext } from "./types.ts";

/**
 * The same check for every route (typed, a Stop or Confirm button, a chat tool call): all reach preview or run.
 * User ids are per platform, so the starter is the same id on the same platform.
 */
function checkOwnership(run: RunRow, ctx: CommandContext): void {
  const { policy } = ctx.services.config;
  const access = accessOf(policy, ctx.channel, ctx.user);
  if (access.role === "admin") return;
  if (run.createdBy === ctx.user.id && run.channel.platform === ctx.channel.platform) return;
  const admins = holdersOf(policy, "admin");
  throw new RlError(
    "FORBIDDEN",
    `Run ${run.id} was started by ${run.createdBy}; only they or an admin may stop it. Stopping another person's run needs the admin permission; you have ${access.role}. ${
      admins.length ? `Ask ${run.createdBy} or one of: ${admins.join(", ")} (RL_ADMINS).` : `Ask ${run.createdBy}; no admins are configured (RL_ADMINS).`
    }`,
    { details: { needed: "admin", role: access.role, started_by: run.createdBy } },
  );
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
    checkOwnership(run, ctx);
    return { title: `Stop run ${run.id} (${run.environment})?`, text: `Started by ${personRef(run.createdBy)}; now ${run.status}.` };
  },
  async run({ run: id }, ctx) {
    const found = ctx.services.report.find(id);
    checkOwnership(found, ctx);
    const run = await ctx.services.manager.stop(found.id, ctx.user.name ?? ctx.user.id);
    return { title: statusLine(run), text: `Stopped by ${run.stoppedBy ?? ctx.user.id}.`, data: { run_id: run.id, status: run.status } };
  },
});

// /rl resume <run>: a stopped, failed or lost run continues from its last checkpoint as the same run; asks to confirm.
import { z } from "zod";
import { resumePoint } from "../src/training/run-manager/resume-run.ts";
import { personRef } from "../src/reply.ts";
import { checkOwnership } from "./check-ownership.ts";
import { startReply } from "./start-reply.ts";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "resume",
  summary: "Resume a stopped or failed run from its last checkpoint",
  description:
    "Continue a stopped, failed or lost training run from its last checkpoint, as the same run (same id, log folder, WandB run name and thread); its status history is kept and the thread hears it resumed. Refused with the reason when the run is live or completed, has no checkpoint, or its training stack cannot resume (atropos-tinker's trainer always starts at step 0: use /rl rerun). Only the person who started it or an admin may. Needs confirmation by the person.",
  toolName: "rl_resume_training",
  args: z.object({ run: z.string().min(1).max(64).describe("Run id to resume") }),
  positional: ["run"],
  permission: "operate",
  uses: ["config", "manager", "redact", "report"],
  slow: true,
  confirm: true,
  mutates: true,
  examples: ["/rl resume ab12cd34"],
  async preview({ run: id }, ctx) {
    const run = ctx.services.report.find(id);
    checkOwnership(run, ctx, "resume");
    const checkpoint = await resumePoint(ctx.services.manager, run);
    return {
      title: `Resume run ${run.id} (${run.environment}) from checkpoint ${checkpoint.name}?`,
      text: `Started by ${personRef(run.createdBy)}; now ${run.status}${run.error ? ` (${run.error})` : ""}.`,
      fields: [
        { label: "Checkpoint", value: `${checkpoint.name}, step ${checkpoint.step}` },
        { label: "Path", value: checkpoint.path },
      ],
      data: { run_id: run.id, checkpoint: checkpoint.name, step: checkpoint.step },
    };
  },
  async run({ run: id }, ctx) {
    const found = ctx.services.report.find(id);
    checkOwnership(found, ctx, "resume");
    const { run, checkpoint } = await ctx.services.manager.resume(found.id, ctx.user.name ?? ctx.user.id, ctx.progress);
    const reply = await startReply(run, ctx);
    return {
      ...reply,
      text: `Resumed from checkpoint ${checkpoint.name} (step ${checkpoint.step}). ${reply.text ?? ""}`.trim(),
      data: { ...(reply.data as object), resumed_from: checkpoint.name, resumed_step: checkpoint.step },
    };
  },
});

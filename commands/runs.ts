// /rl runs [--all]: this channel's runs (or every channel's), newest first.
import { z } from "zod";
import type { RunRow } from "../db/runs.ts";
import { personRef } from "../src/reply.ts";
import { statusLine } from "./run-reply.ts";
import { defineCommand } from "./types.ts";

/** " · fork of 1a2b3c4d at step 20", " · resumed 2x": how the run came about, when not a plain start. */
function lineageOf(run: RunRow): string {
  const fork = run.parentId
    ? ` · fork of ${run.parentId}${run.forkStep === undefined ? "" : ` at step ${run.forkStep}`}`
    : "";
  const resumed = run.attempt > 0 ? ` · resumed${run.attempt > 1 ? ` ${run.attempt}x` : ""}` : "";
  return fork + resumed;
}

export default defineCommand({
  name: "runs",
  summary: "List training runs",
  description:
    "List training runs, newest first: this channel's, or every channel's with all=true. Each has run id, environment, status, who started it and when, and the run it was forked from or how often it was resumed.",
  toolName: "rl_list_runs",
  args: z.object({
    all: z.boolean().optional().describe("Every channel's runs, not just this one's"),
    limit: z.number().int().min(1).max(100).optional().describe("How many (default 20)"),
  }),
  permission: "read",
  uses: ["report"],
  async run({ all, limit }, ctx) {
    const rows = ctx.services.report.list(all ? undefined : ctx.channel, limit ?? 20);
    const runs = rows.map((r) => ({
      run_id: r.id,
      environment: r.environment,
      status: r.status,
      created_by: r.createdBy,
      created_at: new Date(r.createdAt).toISOString(),
      wandb_run_name: r.wandbRunName,
      ...(r.parentId ? { forked_from: { run_id: r.parentId, step: r.forkStep } } : {}),
      ...(r.attempt > 0 ? { resumed: r.attempt } : {}),
    }));
    return {
      title: `Runs${all ? " (all channels)" : ""}: ${runs.length}`,
      text:
        rows
          .map(
            (r) =>
              `${statusLine(r)} · ${personRef(r.createdBy)} · ${new Date(r.createdAt).toISOString().slice(0, 16).replace("T", " ")}${lineageOf(r)}`,
          )
          .join("\n") || "No runs yet. Start one with /rl start.",
      data: { runs, count: runs.length },
    };
  },
});

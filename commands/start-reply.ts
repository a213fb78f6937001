// The reply to a run being started (by start, rerun or a sweep's first run): running, queued, submitted, stopped, or failed with its log.
import type { RunRow } from "../db/runs.ts";
import type { Reply } from "../src/reply.ts";
import { allUpText } from "../src/stacks/describe-stack.ts";
import { runButtons, statusLine } from "./run-reply.ts";
import type { CommandContext } from "./types.ts";

export async function startReply(run: RunRow, ctx: CommandContext<"manager" | "report" | "redact">): Promise<Reply> {
  const data = {
    run_id: run.id,
    status: run.status,
    environment: run.environment,
    wandb_project: run.wandbProject,
    wandb_run_name: run.wandbRunName,
    error: run.error,
  };
  if (run.status === "failed") {
    const tail = run.failedComponent ? await ctx.services.report.logs(run, run.failedComponent, 15) : [];
    return {
      title: statusLine(run),
      text: run.error,
      blocks: tail.length
        ? [{ kind: "code", title: `${run.failedComponent} log`, content: ctx.services.redact(tail.join("\n")) }]
        : undefined,
      error: { code: "PROCESS_FAILED", message: run.error ?? "The run failed to start." },
      delivery: { anchorRunId: run.id },
      data,
    };
  }
  // A stop (a person's, or the bot shutting down) ended the start before its components were all up.
  if (run.status === "stopping" || run.status === "stopped") {
    return {
      title: statusLine(run),
      text: `${run.status === "stopping" ? "Being stopped" : "Stopped"} before it was up, by ${run.stoppedBy ?? "a stop"}.`,
      fields: [{ label: "Run", value: run.id }],
      delivery: { anchorRunId: run.id },
      data: { ...data, stopped_by: run.stoppedBy },
    };
  }
  return {
    title: statusLine(run),
    text:
      run.status === "queued"
        ? "Another run holds the training ports; this one starts when it ends."
        : run.status === "starting"
          ? "Submitted; waiting for the cluster to start it (see /rl status for the queue reason). A notice follows when it runs."
          : `${allUpText(ctx.services.manager.stackOf(run))} Notices and digests about this run will be posted here.`,
    fields: [
      { label: "Run", value: run.id },
      { label: "Steps", value: String(run.totalSteps ?? "?") },
      { label: "WandB run", value: run.wandbRunName ?? "–" },
    ],
    buttons: runButtons(run),
    delivery: { anchorRunId: run.id },
    data,
  };
}

// /rl start: train the channel's environment with its config; asks to confirm, then reports running or why not.
import { z } from "zod";
import { runButtons, statusLine } from "./run-reply.ts";
import { formatValue } from "./format-value.ts";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "start",
  summary: "Start a training run",
  description:
    "Start a training run of this channel's selected environment with its config (locked infrastructure fields on top). Starts the trajectory API, the trainer and the environment, waits until each is ready, and returns the run id and status (running, queued when another run holds the training ports, or failed with the reason). Needs confirmation by the person.",
  toolName: "rl_start_training",
  args: z.object({}),
  permission: "operate",
  slow: true,
  confirm: true,
  mutates: true,
  async preview(_args, ctx) {
    // Asking to confirm a start that cannot happen would waste the person's click: refuse with the reason now.
    await ctx.services.env.startableEnvironment(ctx.channel);
    const view = await ctx.services.env.getConfig(ctx.channel);
    const changed = view.configurable_fields.filter((f) => f.changed);
    const steps = view.locked_fields.find((f) => f.name === "total_steps")?.locked_value ?? view.configurable_fields.find((f) => f.name === "total_steps")?.current_value;
    return {
      title: `Start training ${view.environment}?`,
      fields: [
        { label: "Environment", value: view.environment },
        { label: "Steps", value: formatValue(steps) },
        { label: "Changed fields", value: changed.map((f) => `${f.name} = ${formatValue(f.current_value)}`).join(", ") || "none (defaults)" },
      ],
    };
  },
  async run(_args, ctx) {
    await ctx.progress?.("Starting the trajectory API, the trainer and the environment…");
    const run = await ctx.services.manager.start({ channel: ctx.channel, thread: ctx.thread, userId: ctx.user.id, progress: ctx.progress });
    const data = { run_id: run.id, status: run.status, environment: run.environment, wandb_project: run.wandbProject, wandb_run_name: run.wandbRunName, error: run.error };
    if (run.status === "failed") {
      const tail = run.failedComponent ? await ctx.services.report.logs(run, run.failedComponent as "api" | "trainer" | "env", 15) : [];
      return {
        title: statusLine(run),
        text: run.error,
        blocks: tail.length ? [{ kind: "code", title: `${run.failedComponent} log`, content: ctx.services.redact(tail.join("\n")) }] : undefined,
        error: { code: "PROCESS_FAILED", message: run.error ?? "The run failed to start." },
        anchorRunId: run.id,
        data,
      };
    }
    return {
      title: statusLine(run),
      text:
        run.status === "queued"
          ? "Another run holds the training ports; this one starts when it ends."
          : run.status === "starting"
            ? "Submitted; waiting for the cluster to start it (see /rl status for the queue reason). A notice follows when it runs."
            : "All three processes are up. Notices and digests about this run will be posted here.",
      fields: [
        { label: "Run", value: run.id },
        { label: "Steps", value: String(run.totalSteps ?? "?") },
        { label: "WandB run", value: run.wandbRunName ?? "–" },
      ],
      buttons: runButtons(run),
      anchorRunId: run.id,
      data,
    };
  },
});

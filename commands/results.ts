// /rl results <run>: final (or current) metrics, reward history as a chart, final weights, failed logs.
import { z } from "zod";
import { checkpointsSummary } from "../src/stacks/describe-checkpoints.ts";
import { statusFields, statusLine, wandbLinks } from "./run-reply.ts";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "results",
  summary: "Show a run's results",
  description:
    "Get the results of a training run: status, step, reward mean and loss, reward-mean history (from WandB, else the run's own log files), percent correct history when WandB has it, the final weights location the run logged, how many checkpoints it saved and the latest, and the log tail of a failed component.",
  toolName: "rl_get_results",
  args: z.object({ run: z.string().min(1).max(64).optional().describe("Run id (default: this channel's latest run)") }),
  positional: ["run"],
  permission: "read",
  uses: ["redact", "report"],
  slow: true,
  async run({ run: id }, ctx) {
    const { report } = ctx.services;
    const run = id ? report.find(id) : report.latest(ctx.channel);
    const view = await report.results(run);
    const blocks = [];
    if (view.failed_log_tail?.length)
      blocks.push({
        kind: "code" as const,
        title: `${view.failed_component} log`,
        content: ctx.services.redact(view.failed_log_tail.join("\n")),
      });
    const fields = statusFields(view);
    if (view.final_weights) fields.push({ label: "Final weights", value: view.final_weights });
    fields.push({ label: "Checkpoints", value: checkpointsSummary(view.checkpoints.count, view.checkpoints.latest) });
    return {
      title: statusLine({ id: view.run_id, status: view.status, environment: view.environment }),
      text: [view.error, view.history_note].filter(Boolean).join("\n") || undefined,
      fields,
      blocks: blocks.length ? blocks : undefined,
      chart:
        view.reward_history.length > 1
          ? { title: "Reward mean by step", points: view.reward_history.map((p) => ({ x: p.step, y: p.value })) }
          : undefined,
      links: wandbLinks(view),
      delivery: { runId: view.run_id },
      data: view,
    };
  },
});

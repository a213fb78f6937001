// /rl checkpoints [run]: the checkpoints a run saved, newest first: name, step, time and the path to resume or fork from.
import { z } from "zod";
import { checkpointLine } from "../src/stacks/describe-checkpoints.ts";
import { statusLine } from "./run-reply.ts";
import { defineCommand } from "./types.ts";

const DEFAULT_LIMIT = 20;

export default defineCommand({
  name: "checkpoints",
  summary: "List a run's checkpoints",
  description:
    "List the checkpoints a training run saved, newest first: name, step, when it was saved (where the stack records it) and the weights path to resume or fork from, plus whether the run's stack can resume from them.",
  toolName: "rl_list_checkpoints",
  args: z.object({
    run: z.string().min(1).max(64).optional().describe("Run id (default: this channel's latest run)"),
    limit: z.number().int().min(1).max(100).optional().describe(`How many, newest first (default ${DEFAULT_LIMIT})`),
  }),
  positional: ["run"],
  permission: "read",
  personal: true,
  uses: ["report"],
  async run({ run: id, limit }, ctx) {
    const { report } = ctx.services;
    const run = id ? report.find(id) : report.latest(ctx.channel);
    const view = await report.checkpoints(run, limit ?? DEFAULT_LIMIT);
    const older = view.count - view.checkpoints.length;
    const lines = view.checkpoints.map(checkpointLine);
    if (older > 0)
      lines.push(`… and ${older} older${view.checkpoints.length < 100 ? " (--limit 100 shows more)" : ""}.`);
    if (view.count === 0) lines.push("No checkpoint yet.");
    if (!view.can_resume) lines.push(`Resuming is not possible on ${view.stack}: ${view.resume_note}.`);
    return {
      title: `${statusLine({ id: view.run_id, status: view.status, environment: view.environment })} · checkpoints: ${view.count}`,
      text: lines.join("\n"),
      data: view,
    };
  },
});

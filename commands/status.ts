// /rl status [run]: live state of a run (the channel's latest by default): processes, step, reward, WandB.
import { z } from "zod";
import { RlError } from "../src/errors.ts";
import { runButtons, statusFields, statusLine, wandbLinks } from "./run-reply.ts";
import { defineCommand } from "./types.ts";

/**
 * The seed's guard against an agent polling in a loop: in chat mode the model checks a run once per 30 minutes within
 * the turn it is answering. A person's next question is a new turn and is always answered.
 */
export const CHAT_STATUS_INTERVAL_MS = 30 * 60_000;

export default defineCommand({
  name: "status",
  summary: "Show a run's status",
  description:
    "Get the live status of a training run (default: this channel's latest): status, process states, step of total, reward mean, loss, running time, WandB link and metrics when available. In chat mode limited to one check per run while answering one message (do not poll).",
  toolName: "rl_check_status",
  args: z.object({ run: z.string().min(1).max(64).optional().describe("Run id (default: this channel's latest run)") }),
  positional: ["run"],
  permission: "read",
  personal: true,
  uses: ["now", "rateLimits", "report"],
  async run({ run: id }, ctx) {
    const { report, rateLimits } = ctx.services;
    // Find the run first, so a mistyped id is "not found" and never uses up the limit.
    const run = id ? report.find(id) : report.latest(ctx.channel);
    if (ctx.via === "chat") {
      // Scoped to the turn: the limit stops the model's repeated polling, never a person asking again.
      const key = ctx.turn === undefined ? run.id : `${run.id} ${ctx.turn}`;
      const last = rateLimits.last("chat-status", key);
      const now = ctx.services.now();
      if (last !== undefined && now - last < CHAT_STATUS_INTERVAL_MS) {
        const seconds = Math.ceil((CHAT_STATUS_INTERVAL_MS - (now - last)) / 1000);
        throw new RlError(
          "RATE_LIMITED",
          `Status of run ${run.id} was already checked while answering this message; answer with that status (the person can ask again for a fresh one).`,
          {
            details: { run_id: run.id, next_check_in_seconds: seconds },
          },
        );
      }
      rateLimits.stamp("chat-status", key, now);
    }
    const view = await report.status(run);
    const notes = [view.error, view.wandb.note].filter(Boolean).join("\n");
    return {
      title: statusLine({ id: view.run_id, status: view.status, environment: view.environment }),
      text: notes || undefined,
      fields: statusFields(view),
      blocks: view.step_errors.length
        ? [{ kind: "code", title: "Step errors", content: view.step_errors.join("\n") }]
        : undefined,
      links: wandbLinks(view),
      buttons: runButtons({ id: view.run_id, status: view.status }),
      delivery: { runId: view.run_id },
      data: view,
    };
  },
});

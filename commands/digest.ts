// /rl digest now|on|off [run]: a digest right away, or mute / unmute a run's digests in this channel.
import { z } from "zod";
import { RlError } from "../src/errors.ts";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "digest",
  summary: "Post a digest now, or turn a run's digests off/on",
  description:
    "Digests: 'now' queues a status digest of this channel's active runs (or one run) at once; 'off' mutes the periodic digests of a run (default: the channel's latest); 'on' unmutes them. Notices of start, failure, completion and stop are never muted.",
  args: z.object({
    action: z.enum(["now", "on", "off"]).describe("now, on or off"),
    run: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("Run id (default: every active run for now, the latest run for on/off)"),
  }),
  positional: ["action", "run"],
  permission: "operate",
  uses: ["digests", "report"],
  mutates: true,
  async run({ action, run: id }, ctx) {
    const { report, digests } = ctx.services;
    if (action === "now") {
      const run = id ? report.find(id) : undefined;
      const result = await digests.runNow({ force: true, channel: ctx.channel, runId: run?.id });
      if (result.runs === 0) {
        const why = result.skippedChannels
          ? "this channel reached its hourly digest limit (RL_CHANNEL_POSTS_PER_HOUR)"
          : "no run is active here";
        throw new RlError("CONFLICT", `No digest posted: ${why}.`);
      }
      return {
        title: "Digest queued",
        text: `Covering ${result.runs} run(s); it will appear in the run's thread or this channel.`,
        delivery: { ephemeral: true },
        data: result,
      };
    }
    const run = id ? report.find(id) : report.latest(ctx.channel);
    digests.mute(run.id, action === "off");
    return {
      title: action === "off" ? `Digests of run ${run.id} muted` : `Digests of run ${run.id} on`,
      text:
        action === "off"
          ? "Start, failure, completion and stop notices still arrive. Turn digests back on with /rl digest on."
          : undefined,
      data: { run_id: run.id, muted: action === "off" },
    };
  },
});

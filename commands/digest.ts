// /rl digest now|on|off [run]: a digest right away, or mute / unmute a run's digests in this channel; /rl digest samples
// on|off: whether this channel's digests show a sample of each run's latest step.
import { z } from "zod";
import { RlError } from "../src/errors.ts";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "digest",
  summary: "Post a digest now, or turn a run's digests (or their samples line) off/on",
  description:
    "Digests: 'now' queues a status digest of this channel's active runs (or one run) at once; 'off' mutes the periodic digests of a run (default: the channel's latest); 'on' unmutes them. 'samples on' adds to this channel's digests one line per run with the best and worst rollout of its latest step (the model's text cut short); 'samples off' (the default) leaves it out. Notices of start, failure, completion and stop are never muted.",
  args: z.object({
    action: z.enum(["now", "on", "off", "samples"]).describe("now, on, off or samples"),
    run: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe(
        "Run id (default: every active run for now, the latest run for on/off); after samples: on or off (default: on)",
      ),
  }),
  positional: ["action", "run"],
  permission: "operate",
  uses: ["digests", "report", "channels"],
  mutates: true,
  async run({ action, run: id }, ctx) {
    const { report, digests, channels } = ctx.services;
    if (action === "samples") {
      if (id !== undefined && id !== "on" && id !== "off")
        throw new RlError("USAGE", "Say /rl digest samples on, or /rl digest samples off.");
      const on = id !== "off";
      channels.setDigestSamples(ctx.channel, on);
      return {
        title: on ? "Digests here show samples" : "Digests here show no samples",
        text: on
          ? "Each run's line in this channel's digests is followed by the best and worst rollout of its latest step, cut short (/rl samples shows more). Turn it off with /rl digest samples off."
          : "Turn the samples line back on with /rl digest samples on.",
        data: { channel_samples: on },
      };
    }
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

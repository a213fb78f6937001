// /rl reset [field]: undo this channel's change to one field, or to all of them.
import { z } from "zod";
import { describeDefault } from "../src/values/describe-default.ts";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "reset",
  summary: "Reset one field (or all) to the default",
  description:
    "Reset one config field, or every field when none is named, of the selected environment to its default for this channel.",
  toolName: "rl_reset_config",
  args: z.object({ field: z.string().min(1).max(200).optional().describe("Field name; omit to reset every field") }),
  positional: ["field"],
  permission: "operate",
  uses: ["env"],
  mutates: true,
  async run({ field }, ctx) {
    const r = await ctx.services.env.resetConfig(ctx.channel, field);
    return {
      title:
        r.reset === "all"
          ? `Reset every field of ${r.environment}`
          : `Reset ${r.reset[0]} to ${describeDefault(r.default, r.default_expr)}`,
      data: r,
    };
  },
});

// /rl set <field> <value>: change one configurable field for this channel, parsed into the field's type.
import { z } from "zod";
import { formatValue } from "../src/values/format-value.ts";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "set",
  summary: "Change a config field",
  description:
    "Set one configurable field of the selected environment for this channel. The value is parsed into the field's type (int, float, bool, str, optional, list, enum); locked fields, unknown fields and wrong types are refused with the reason. Returns the field, new value and previous value.",
  toolName: "rl_edit_config",
  args: z.object({
    field: z.string().min(1).max(200).describe("Field name, from /rl config"),
    value: z.string().max(4000).describe("New value, as text (lists: comma-separated or a JSON array; none for empty)"),
  }),
  positional: ["field", "value"],
  restOfLine: true,
  permission: "operate",
  uses: ["env"],
  mutates: true,
  examples: ["/rl set group_size 8", "/rl set wandb_name my-run"],
  async run({ field, value }, ctx) {
    const r = await ctx.services.env.editConfig(ctx.channel, field, value);
    return {
      title: `${r.field} = ${formatValue(r.value)}`,
      text: `Was ${formatValue(r.previous)} (${r.environment}).`,
      data: r,
    };
  },
});

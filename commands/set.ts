// /rl set <field> <value>: change one configurable field for this channel, parsed into the field's type.
import { z } from "zod";
import { describeDefault } from "../src/values/describe-default.ts";
import { formatValue } from "../src/values/format-value.ts";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "set",
  summary: "Change a config field",
  description:
    "Set one configurable field of the selected environment for this channel. The value is parsed into the field's type (int, float, bool, str, optional, list, enum); locked fields, unknown fields and wrong types are refused with the reason. Text is kept as given: wrap it in quotes to keep a leading or trailing space. In an optional field the bare word none (or null) means None, and \"none\" in quotes is the text none. A float too large for a double (1e400) is inf, as pydantic reads it, unless a bound excludes it. On atropos-tinker a group_size above the batch size the run will use (the trainer's) is refused, since atroposlib refuses to start on it. Returns the field, new value and previous value.",
  notes:
    'Text is kept as typed; quote it to keep a leading or trailing space (" x"). In an optional field the bare word none (or null) means None, and "none" in quotes is the text none. 1e400 is inf, as pydantic reads it, where no bound excludes it.',
  toolName: "rl_edit_config",
  args: z.object({
    field: z.string().min(1).max(200).describe("Field name, from /rl config"),
    value: z
      .string()
      .max(4000)
      .describe(
        'New value, as text (lists: comma-separated or a JSON array; none for None, "none" in quotes for the text)',
      ),
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
      text: `Was ${describeDefault(r.previous, r.previous_expr)} (${r.environment}).${r.warning ? `\nWarning: ${r.warning}` : ""}`,
      data: r,
    };
  },
});

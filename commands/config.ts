// /rl config: the selected environment's fields with their current values, configurable first, locked after.
import { z } from "zod";
import type { FieldView } from "../src/environment-ops.ts";
import { formatValue } from "./format-value.ts";
import { defineCommand } from "./types.ts";

// A default only the running environment computes is shown as its source, never as "none".
function currentText(field: FieldView): string {
  if (!field.changed && field.default_expr !== undefined) return `set when the environment starts: \`${field.default_expr}\``;
  return formatValue(field.current_value);
}

export default defineCommand({
  name: "config",
  summary: "Show the selected environment's config",
  description:
    "Show the config of this channel's selected environment: configurable fields (name, type, default, description, current value, whether changed here) and locked infrastructure fields with their locked values.",
  toolName: "rl_get_current_config",
  args: z.object({}),
  permission: "read",
  async run(_args, ctx) {
    const view = await ctx.services.env.getConfig(ctx.channel);
    const configurable = view.configurable_fields
      .map((f) => `${f.changed ? "*" : " "} ${f.name} = ${currentText(f)}  (${f.type})${f.description ? `  ${f.description}` : ""}`)
      .join("\n");
    const locked = view.locked_fields.map((f) => `  ${f.name} = ${formatValue(f.locked_value)}`).join("\n");
    return {
      title: `Config of ${view.environment}`,
      text: "Fields marked * were changed in this channel. Change one with /rl set <field> <value>; undo with /rl reset <field>.",
      blocks: [
        { kind: "code", title: `Configurable (${view.configurable_fields.length})`, content: configurable || "(none)" },
        { kind: "code", title: `Locked (${view.locked_fields.length})`, content: locked || "(none)" },
      ],
      data: view,
    };
  },
});

// /rl select <name>: choose this channel's environment; its config starts from the environment's defaults.
import { z } from "zod";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "select",
  summary: "Select the environment for this channel",
  description:
    "Select an RL environment (by name, from rl_list_environments) for this channel. Returns the environment, its file path, how many fields are configurable and locked, and which fields this channel has already changed.",
  toolName: "rl_select_environment",
  args: z.object({ name: z.string().min(1).max(200).describe("Environment name, from /rl envs") }),
  positional: ["name"],
  permission: "operate",
  uses: ["env"],
  mutates: true,
  async run({ name }, ctx) {
    const r = await ctx.services.env.selectEnvironment(ctx.channel, name);
    return {
      title: `Selected ${r.environment}`,
      text: `${r.description}\n${r.configurable_fields} configurable fields, ${r.locked_fields} locked. See /rl config, change with /rl set <field> <value>.${r.runnable ? "" : `\nIt cannot be started as it is: ${r.reason ?? "its file has no entry point for it"}.`}`,
      fields: r.changed.length ? [{ label: "Changed in this channel", value: r.changed.join(", ") }] : undefined,
      data: r,
    };
  },
});

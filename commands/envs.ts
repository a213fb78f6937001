// /rl envs: the environments (or recipes) the training stack found, marking this channel's selection.
import { z } from "zod";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "envs",
  summary: "List the training environments",
  description:
    "List the RL environments found (by static analysis) in the environments folder: name, class name, file path, one-line description, config class, and whether it can be started (runnable; reason when not: its file has no a main block calling Class.cli()). Also says which one this channel has selected and any files that could not be read.",
  toolName: "rl_list_environments",
  args: z.object({}),
  permission: "read",
  personal: true,
  uses: ["config", "env", "manager"],
  async run(_args, ctx) {
    const result = await ctx.services.env.listEnvironments(ctx.channel);
    const lines = result.environments.map(
      (e) =>
        `${e.name === result.selected ? "▶ " : "• "}${e.name}${e.class_name ? ` (${e.class_name})` : ""}: ${e.description || e.file_path}${e.runnable ? "" : ` [cannot be started: ${e.reason ?? "no entry point"}]`}`,
    );
    const stack = ctx.services.manager.currentStack;
    const units = `${stack.unitName[0]!.toUpperCase()}${stack.unitName.slice(1)}s`;
    const where = ctx.services.config.environmentsDir;
    return {
      title: `${units} (${result.environments.length})`,
      text: [
        lines.join("\n") ||
          `No ${units.toLowerCase()} found in ${where}. Check RL_TRAINING_ROOT and RL_ENVIRONMENTS_DIR.`,
        `Training stack: ${stack.title} (RL_STACK=${ctx.services.config.stack}).`,
      ].join("\n"),
      blocks: result.warnings.length
        ? [
            {
              kind: "text",
              title: "Warnings",
              content: result.warnings.map((w) => `${w.filePath}: ${w.message}`).join("\n"),
            },
          ]
        : undefined,
      data: { ...result, stack: stack.id },
    };
  },
});

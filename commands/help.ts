// /rl help [command]: the list of commands, or one command's usage and examples.
import { z } from "zod";
import { usageOf } from "./arg-specs.ts";
import { defineCommand, type AnyCommand } from "./types.ts";

/** The help command over `list()`, the registry it belongs to (commands/index.ts hands it its own list). */
export function createHelpCommand(list: () => readonly AnyCommand[]): AnyCommand {
  return defineCommand({
    name: "help",
    summary: "List the commands, or explain one",
    description: "List the /rl commands with a one-line summary each, or show one command's usage.",
    args: z.object({ command: z.string().max(50).optional().describe("A command name") }),
    positional: ["command"],
    permission: "read",
    uses: [],
    async run({ command }) {
      const commands = list();
      const one = command ? commands.find((c) => c.name === command.toLowerCase()) : undefined;
      if (one) {
        return {
          title: `/rl ${one.name}`,
          text: `${one.summary}${one.notes ? `\n${one.notes}` : ""}\nUsage: ${usageOf(one)}${one.examples ? `\nExamples:\n${one.examples.join("\n")}` : ""}`,
          delivery: { ephemeral: true },
        };
      }
      return {
        title: "rl-chatops commands",
        blocks: [{ kind: "code", content: commands.map((c) => `${usageOf(c).padEnd(44)} ${c.summary}`).join("\n") }],
        delivery: { ephemeral: true },
        data: { commands: commands.map((c) => ({ name: c.name, usage: usageOf(c), summary: c.summary })) },
      };
    },
  });
}

// docs/commands.md's generated part: every /rl command of the registry with its usage, who may use it, whether it
// asks to confirm or answers privately, its arguments and examples, as /rl help and the platforms show them.
import { argSpecs, usageOf } from "../../../commands/arg-specs.ts";
import type { AnyCommand } from "../../../commands/types.ts";
import { escapeCell } from "./markdown.ts";

const WHO: Record<AnyCommand["permission"], string> = {
  read: "anyone with the read role",
  operate: "the operate role",
  admin: "admins",
};

/** Who may use it: the role, and what the command itself adds (approvers, a person's own runs). */
function who(command: AnyCommand): string {
  if (command.name === "approve" || command.name === "deny") return "people in RL_APPROVERS, never the asker";
  return WHO[command.permission];
}

function traits(command: AnyCommand): string {
  const parts: string[] = [];
  if (command.confirm) parts.push("asks to confirm");
  if (command.personal === true) parts.push("answered privately");
  else if (command.personal) parts.push("answered privately when it only shows");
  if (command.slow) parts.push("shows progress");
  if (command.toolName) parts.push(`chat tool \`${command.toolName}\``);
  return parts.join(", ");
}

function section(command: AnyCommand): string[] {
  const lines = [`### /rl ${command.name}`, "", `\`${usageOf(command)}\` — ${command.summary}.`, ""];
  if (command.notes) lines.push(command.notes, "");
  const specs = argSpecs(command);
  if (specs.length) {
    lines.push("| argument | type | required | meaning |", "| --- | --- | --- | --- |");
    for (const spec of specs) {
      const type = spec.choices ? spec.choices.join(" \\| ") : spec.type;
      const name = spec.positional ? `<${spec.name}>` : `--${spec.name}`;
      lines.push(
        `| \`${escapeCell(name)}\` | ${escapeCell(type)} | ${spec.required ? "yes" : "no"} | ${escapeCell(spec.description)} |`,
      );
    }
    lines.push("");
  }
  if (command.examples?.length) lines.push("```text", ...command.examples, "```", "");
  return lines;
}

/** The generated Markdown: a table of every command, then a section for each. */
export function commandsReference(commands: readonly AnyCommand[]): string {
  const table = [
    "| command | who may use it | | what it does |",
    "| --- | --- | --- | --- |",
    ...commands.map(
      (c) =>
        `| [\`/rl ${c.name}\`](#rl-${c.name}) | ${escapeCell(who(c))} | ${escapeCell(traits(c))} | ${escapeCell(c.summary)} |`,
    ),
  ];
  return [...table, "", ...commands.flatMap(section)].join("\n").trimEnd() + "\n";
}

// The MCP tools: the registry's chat tools (commands with a toolName), with the same names and JSON Schemas as chat
// mode, titled by their summaries and annotated from the registry's own flags.
import type { Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { AnyCommand } from "../../commands/types.ts";
import { buildTools, toolCommands } from "../chat/build-tools.ts";

/**
 * What a client may assume of a tool: a read changes nothing; a command that asks to confirm spends or ends training
 * (destructive, and not the same when called twice); the other changes (select, set, reset) leave the same state when
 * repeated.
 */
export function annotationsOf(command: Pick<AnyCommand, "summary" | "mutates" | "confirm">): ToolAnnotations {
  const changes = command.mutates === true || command.confirm === true;
  return {
    title: command.summary,
    readOnlyHint: !changes,
    destructiveHint: command.confirm === true,
    idempotentHint: command.confirm !== true,
    openWorldHint: false,
  };
}

/** The tools in registry order, for tools/list. */
export function agentTools(commands: readonly AnyCommand[]): Tool[] {
  const commandsOfTools = toolCommands(commands);
  return buildTools(commands).map(({ function: tool }, index) => {
    const command = commandsOfTools[index]!;
    return {
      name: tool.name,
      title: command.summary,
      description: tool.description,
      inputSchema: { type: "object", ...tool.parameters } as Tool["inputSchema"],
      annotations: annotationsOf(command),
    };
  });
}

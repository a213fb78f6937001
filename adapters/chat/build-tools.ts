// The LLM's tools, generated from the command registry: one function per command that has a toolName.
import { argsJsonSchema } from "../../commands/arg-specs.ts";
import type { AnyCommand } from "../../commands/types.ts";
import type { ToolDefinition } from "./chat-messages.ts";

/** What OpenAI-compatible endpoints accept as a function name. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The commands the model may call, in registry order. */
export function toolCommands(commands: readonly AnyCommand[]): AnyCommand[] {
  return commands.filter((c) => c.toolName !== undefined);
}

/** The JSON Schema the model sees; "$schema" is dropped because Gemini's endpoints reject the whole request over it. */
export function toolParameters(command: AnyCommand): Record<string, unknown> {
  const { $schema: _meta, ...schema } = argsJsonSchema(command);
  return schema;
}

export function buildTools(commands: readonly AnyCommand[]): ToolDefinition[] {
  const seen = new Set<string>();
  return toolCommands(commands).map((command) => {
    const name = command.toolName!;
    // A registry mistake, caught when the bot starts rather than as a 400 from the endpoint on every request.
    if (!TOOL_NAME.test(name)) throw new Error(`Command ${command.name}: tool name "${name}" must match ${TOOL_NAME}.`);
    if (seen.has(name)) throw new Error(`Command ${command.name}: tool name "${name}" is used twice.`);
    seen.add(name);
    return {
      type: "function",
      function: { name, description: command.description, parameters: toolParameters(command) },
    };
  });
}

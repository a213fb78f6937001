// Runs one model-requested tool call through the same dispatcher as /rl commands, and words the result for the model.
import { argSpecs } from "../../commands/arg-specs.ts";
import { dispatch, type DispatchResult } from "../../commands/dispatch.ts";
import type { AnyCommand, CommandContext } from "../../commands/types.ts";
import type { Redactor } from "../../src/redact.ts";
import { confirmButtons, type Reply } from "../../src/reply.ts";
import type { ToolCall } from "./chat-messages.ts";
import { errorContent, toolResultContent, type ToolError } from "./tool-result-content.ts";

export interface ToolOutcome {
  name: string;
  ok: boolean;
  /** The error code when the call failed (FORBIDDEN, USAGE, RATE_LIMITED, INVALID_ARGUMENTS, UNKNOWN_TOOL, ...). */
  code?: string;
  /** The tool message content the model reads. */
  content: string;
  /** Set when the command needs the person's confirmation: the prompt, with its Confirm and Cancel buttons. */
  confirmation?: Reply;
}

export interface ToolRunOptions {
  /** The asking person's context, with via "chat". */
  ctx: CommandContext;
  commands: readonly AnyCommand[];
  maxResultChars: number;
  /** The client's id for the call (an agent's, through rl-chatops mcp): a changing command runs once for it. */
  requestId?: string;
}

type Parsed = { args: Record<string, unknown> } | { error: ToolError };

/** The model writes arguments as text: anything but a JSON object becomes an error it can correct. */
function parseArguments(raw: string): Parsed {
  if (raw.trim() === "") return { args: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch (err) {
    return {
      error: {
        code: "INVALID_ARGUMENTS",
        message: `The arguments are not valid JSON (${err instanceof Error ? err.message : "parse error"}). Send one JSON object matching the tool's parameters.`,
      },
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      error: {
        code: "INVALID_ARGUMENTS",
        message: "The arguments must be a JSON object matching the tool's parameters.",
      },
    };
  }
  return { args: value as Record<string, unknown> };
}

/**
 * Models send `"value": 8`, `true` or `["a", "b"]` where a command takes a field's value as text (rl_edit_config): the
 * JSON value is the text it stands for (a list field takes a JSON array), parsed by the command into the field's type
 * like anything typed. Only a "value" argument: a number given for a name is still a mistake the model hears about.
 */
function valuesAsText(command: AnyCommand, args: Record<string, unknown>): Record<string, unknown> {
  const out = { ...args };
  for (const spec of argSpecs(command)) {
    const value = out[spec.name];
    if (spec.name !== "value" || spec.type !== "string") continue;
    if ((typeof value === "number" || typeof value === "boolean") && Number.isFinite(Number(value)))
      out[spec.name] = JSON.stringify(value);
    else if (Array.isArray(value) || (value !== null && typeof value === "object"))
      out[spec.name] = JSON.stringify(value);
  }
  return out;
}

/** What the model reads about a prompt: it must not take it for the operation itself. */
function awaitingConfirmation(prompt: Reply): Record<string, unknown> {
  const confirm = confirmButtons(prompt)[0];
  return {
    status: "awaiting_confirmation",
    message: `Not run yet. The person has been shown Confirm and Cancel buttons for ${confirm?.command ?? "this operation"}; it runs only if they press Confirm. Tell them so; do not say it has started or stopped.`,
    command: confirm?.command,
    preview: { title: prompt.title, text: prompt.text, fields: prompt.fields },
  };
}

/** A command's result as a tool's: its typed data, or its error (with any data it carries), as bounded JSON. */
export function resultContent(
  result: Pick<DispatchResult, "ok" | "reply">,
  redact: Redactor,
  maxResultChars: number,
): { ok: boolean; code?: string; content: string } {
  const { reply } = result;
  if (!result.ok || reply.error) {
    const error = reply.error ?? { code: "INTERNAL", message: reply.text ?? "The command failed." };
    const body = reply.data === undefined ? errorContent(error) : { ...errorContent(error), data: reply.data };
    return { ok: false, code: error.code, content: toolResultContent(body, redact, maxResultChars) };
  }
  // Commands put their typed result in data; a few (help for one command) answer in prose only.
  const data = reply.data !== undefined ? reply.data : { title: reply.title, text: reply.text, fields: reply.fields };
  return { ok: true, content: toolResultContent(data, redact, maxResultChars) };
}

export async function runToolCall(
  call: ToolCall,
  { ctx, commands, maxResultChars, requestId }: ToolRunOptions,
): Promise<ToolOutcome> {
  const { redact } = ctx.services;
  const name = call.function.name;
  const fail = (error: ToolError): ToolOutcome => ({
    name,
    ok: false,
    code: error.code,
    content: toolResultContent(errorContent(error), redact, maxResultChars),
  });

  const command = commands.find((c) => c.toolName !== undefined && c.toolName === name);
  if (!command) {
    const known = commands.flatMap((c) => (c.toolName ? [c.toolName] : []));
    return fail({
      code: "UNKNOWN_TOOL",
      message: `There is no tool named "${name.slice(0, 100)}". The tools are: ${known.join(", ")}.`,
    });
  }
  const parsed = parseArguments(call.function.arguments);
  if ("error" in parsed) return fail(parsed.error);

  try {
    const result = await dispatch({ name, args: valuesAsText(command, parsed.args) }, ctx, {
      commands,
      ...(requestId !== undefined ? { requestId } : {}),
    });
    if (result.needsConfirmation) {
      return {
        name,
        ok: true,
        content: toolResultContent(awaitingConfirmation(result.reply), redact, maxResultChars),
        confirmation: result.reply,
      };
    }
    return { name, ...resultContent(result, redact, maxResultChars) };
  } catch (err) {
    // dispatch promises never to throw; if it ever does, the model still gets an answer for this call.
    ctx.services.log.error("chat tool call failed", { tool: name, err });
    return fail({ code: "INTERNAL", message: "The operation failed unexpectedly; it is logged for the operator." });
  }
}

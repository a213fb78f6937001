// One MCP tool call: handed to the bot that owns the data folder; a command that needs the person's confirmation is
// asked through the client (elicitation) and runs only on their accept, or is answered "nothing started, and how".
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { BotResponse } from "../../src/lease/ask-bot.ts";
import { isRlError } from "../../src/errors.ts";
import { confirmButtons, type Reply } from "../../src/reply.ts";
import { checkInputSize } from "../../src/values/check-input-size.ts";

/** What the server asks the bot: a tool by name, or the answer to the prompt a tool call made. */
export type AgentCall =
  { tool: string; args: Record<string, unknown> } | { confirmation: string; answer: "confirm" | "cancel" };

/** The person's answer to a prompt shown by their client. */
export type ElicitAnswer = "accept" | "decline" | "cancel";

export interface AgentToolDeps {
  /** Sends the call to the bot (starting the background supervisor when none runs) and returns its answer. */
  ask: (call: AgentCall) => Promise<BotResponse>;
  /** Shows the prompt to the person through the client; absent when the client cannot (no elicitation). */
  elicit?: (prompt: Reply, command: string) => Promise<ElicitAnswer>;
  /** Where the person can confirm a command themselves, for a client without elicitation. */
  confirmElsewhere: (command: string) => string;
}

/** The bot's tool result as MCP's: the JSON the chat model would read as text, and the same as structured content. */
export function toolResult(response: Pick<BotResponse, "ok" | "rendered">, note?: string): CallToolResult {
  let structured: Record<string, unknown> | undefined;
  try {
    const value: unknown = JSON.parse(response.rendered);
    structured =
      value !== null && typeof value === "object" && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : { result: value };
  } catch {
    structured = undefined;
  }
  if (note && structured) structured = { ...structured, note };
  const text = note ? `${response.rendered}\n${note}` : response.rendered;
  return {
    content: [{ type: "text", text }],
    ...(structured ? { structuredContent: structured } : {}),
    ...(response.ok ? {} : { isError: true }),
  };
}

/** A tool error the agent can act on, with nothing run. */
export function errorResult(code: string, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  const body = { error: { code, message }, ...extra };
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body, isError: true };
}

/** The prompt's facts as the result says them (what would start, steps, budget left). */
function previewOf(prompt: Reply): Record<string, unknown> {
  return { title: prompt.title, ...(prompt.text ? { text: prompt.text } : {}), fields: prompt.fields ?? [] };
}

async function answerPrompt(deps: AgentToolDeps, id: string, command: string, answer: ElicitAnswer) {
  if (answer !== "accept") {
    await deps.ask({ confirmation: id, answer: "cancel" });
    const message = `The person ${answer === "decline" ? "declined" : "dismissed"} ${command}: nothing was started or changed.`;
    const body = { status: "declined", command, message };
    return { content: [{ type: "text" as const, text: JSON.stringify(body) }], structuredContent: body };
  }
  const response = await deps.ask({ confirmation: id, answer: "confirm" });
  // The owner died after taking the answer and a new one was asked: the prompt says it was answered, once.
  const retried = !response.ok && response.code === "CONFLICT" && /already answered/.test(response.rendered);
  return toolResult(
    response,
    retried ? `Check rl_list_runs or rl_check_status for what ${command} did before asking again.` : undefined,
  );
}

/** Runs the tool call; never throws (a failure is a tool error saying what to do). */
export async function callAgentTool(
  deps: AgentToolDeps,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  try {
    // Refused here with the bot's own words (its length and the limit), before anything is sent or started.
    checkInputSize(args);
  } catch (err) {
    if (isRlError(err)) return errorResult(err.code, err.message, { details: err.details });
    throw err;
  }
  try {
    const response = await deps.ask({ tool, args });
    if (!response.needsConfirmation) return toolResult(response);
    const prompt = response.reply as Reply;
    const button = confirmButtons(prompt)[0];
    if (!button?.confirmation) return errorResult("INTERNAL", "The bot asked to confirm without a prompt id.");
    const command = button.command ?? tool;
    if (!deps.elicit)
      return errorResult(
        "NEEDS_CONFIRMATION",
        `Nothing was started: ${command} needs the person's confirmation, and this MCP client cannot ask them (it does not support elicitation). ${deps.confirmElsewhere(command)}`,
        { status: "not_started", command, preview: previewOf(prompt) },
      );
    return await answerPrompt(deps, button.confirmation, command, await deps.elicit(prompt, command));
  } catch (err) {
    return errorResult(
      (err as { code?: unknown }).code === "TIMEOUT" ? "TIMEOUT" : "UPSTREAM",
      err instanceof Error ? err.message : String(err),
    );
  }
}

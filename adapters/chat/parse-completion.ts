// Reads a chat-completions answer defensively: providers differ in small ways, and the text is not ours.
import { randomUUID } from "node:crypto";
import { RlError } from "../../src/errors.ts";
import type { AssistantMessage, ToolCall } from "./chat-messages.ts";

export interface Completion {
  message: AssistantMessage;
  finishReason?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Content is a string, null, or (some providers) a list of {type: "text", text} parts. */
function readContent(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const text = content.map((p) => (isRecord(p) && typeof p["text"] === "string" ? p["text"] : "")).join("");
    return text || null;
  }
  return null;
}

/** Arguments should be a JSON string; some providers send the object itself. Anything else is left for the loop to refuse. */
function readArguments(args: unknown): string {
  if (typeof args === "string") return args;
  if (args === undefined || args === null) return "";
  return JSON.stringify(args);
}

function readToolCalls(raw: unknown): ToolCall[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  return raw.map((call): ToolCall => {
    const fn = isRecord(call) && isRecord(call["function"]) ? call["function"] : {};
    const id =
      isRecord(call) && typeof call["id"] === "string" && call["id"] ? call["id"] : `call_${randomUUID().slice(0, 8)}`;
    return {
      id,
      type: "function",
      function: { name: typeof fn["name"] === "string" ? fn["name"] : "", arguments: readArguments(fn["arguments"]) },
    };
  });
}

/** Parse the response body of a 2xx answer; throws RlError("UPSTREAM") when it is not a chat completion. */
export function parseCompletion(text: string): Completion {
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw new RlError(
      "UPSTREAM",
      "The language model service sent an answer that is not JSON. Try again; if it persists, check LLM_BASE_URL.",
    );
  }
  // OpenRouter reports some upstream failures as a 200 carrying an error object.
  if (isRecord(body) && isRecord(body["error"])) {
    const said = typeof body["error"]["message"] === "string" ? body["error"]["message"] : "unknown error";
    throw new RlError("UPSTREAM", `The language model service reported an error: ${said.slice(0, 300)}`);
  }
  const choice = isRecord(body) && Array.isArray(body["choices"]) ? (body["choices"][0] as unknown) : undefined;
  if (!isRecord(choice) || !isRecord(choice["message"])) {
    throw new RlError(
      "UPSTREAM",
      "The language model service sent JSON that is not a chat completion (no choices[0].message). Check LLM_BASE_URL.",
    );
  }
  const message = choice["message"];
  const toolCalls = readToolCalls(message["tool_calls"]);
  return {
    message: {
      role: "assistant",
      content: readContent(message["content"]),
      ...(toolCalls ? { tool_calls: toolCalls } : {}),
    },
    finishReason: typeof choice["finish_reason"] === "string" ? choice["finish_reason"] : undefined,
  };
}

// The request checks a real OpenAI-compatible endpoint makes, so the fake answers 400 where the real one would.
export interface FakeToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}

export interface FakeMessage {
  role: string;
  content?: string | null;
  tool_calls?: FakeToolCall[];
  tool_call_id?: string;
}

export interface FakeTool {
  type: string;
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatRequestBody {
  model: string;
  messages: FakeMessage[];
  tools?: FakeTool[];
  tool_choice?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Why the request would be refused with 400, or undefined when it is well-formed. */
export function invalidRequest(body: unknown): string | undefined {
  if (!isRecord(body)) return "The request body must be a JSON object.";
  if (typeof body["model"] !== "string" || body["model"] === "") return "you must provide a model parameter";
  const messages = body["messages"];
  if (!Array.isArray(messages) || messages.length === 0) return "'messages' must be a non-empty array";
  if (body["tools"] !== undefined) {
    if (!Array.isArray(body["tools"])) return "'tools' must be an array";
    for (const [i, tool] of body["tools"].entries()) {
      if (!isRecord(tool) || tool["type"] !== "function" || !isRecord(tool["function"]))
        return `tools[${i}] must be {type: "function", function: {...}}`;
      const name = tool["function"]["name"];
      if (typeof name !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(name))
        return `tools[${i}].function.name is invalid`;
      if (tool["function"]["parameters"] !== undefined && !isRecord(tool["function"]["parameters"]))
        return `tools[${i}].function.parameters must be an object`;
    }
  }
  // Every tool_calls message must be answered, id by id, by the tool messages right after it; no stray tool messages.
  let expected: string[] = [];
  for (const [i, message] of messages.entries()) {
    if (!isRecord(message) || typeof message["role"] !== "string") return `messages[${i}] must have a role`;
    const role = message["role"];
    if (role === "tool") {
      const id = message["tool_call_id"];
      if (typeof id !== "string" || !expected.includes(id)) {
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages[${i}]).`;
      }
      if (typeof message["content"] !== "string") return `messages[${i}].content must be a string`;
      expected = expected.filter((e) => e !== id);
      continue;
    }
    if (expected.length > 0) {
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${expected.join(", ")}`;
    }
    if (!["system", "user", "assistant", "developer"].includes(role))
      return `messages[${i}].role "${role}" is not valid`;
    if (role === "assistant" && Array.isArray(message["tool_calls"])) {
      for (const call of message["tool_calls"]) {
        if (
          !isRecord(call) ||
          typeof call["id"] !== "string" ||
          !isRecord(call["function"]) ||
          typeof call["function"]["arguments"] !== "string"
        ) {
          return `messages[${i}].tool_calls must be [{id, type: "function", function: {name, arguments: string}}]`;
        }
        expected.push(call["id"]);
      }
    } else if (typeof message["content"] !== "string") {
      return `messages[${i}].content must be a string`;
    }
  }
  if (expected.length > 0) return `The following tool_call_ids did not have response messages: ${expected.join(", ")}`;
  return undefined;
}

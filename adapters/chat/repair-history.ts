// Makes a loaded history acceptable to the endpoint: every tool call answered, no tool result without its call.
import type { ChatMessage, ToolMessage } from "./chat-messages.ts";

/**
 * Endpoints reject an assistant message whose tool_calls are not each followed by a tool result, and a
 * tool result that answers no call. Stored history is written a whole turn at a time, so this only matters
 * for a trimmed window, a damaged row or an older format; a group that is not whole is dropped as a unit.
 */
export function repairHistory(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let i = 0;
  while (i < messages.length) {
    const message = messages[i]!;
    i++;
    if (message.role === "tool") continue;
    if (message.role !== "assistant" || !message.tool_calls?.length) {
      out.push(message);
      continue;
    }
    const results: ToolMessage[] = [];
    while (i < messages.length && messages[i]!.role === "tool") results.push(messages[i++] as ToolMessage);
    const ids = message.tool_calls.map((c) => c.id);
    const whole = results.length === ids.length && results.every((r, k) => r.tool_call_id === ids[k]);
    if (whole) out.push(message, ...results);
  }
  return out;
}

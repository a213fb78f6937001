// The OpenAI chat-completions message and tool shapes this bot sends, stores and reads back.
import { z } from "zod";

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface SystemMessage {
  role: "system";
  content: string;
}
export interface UserMessage {
  role: "user";
  content: string;
}
export interface AssistantMessage {
  role: "assistant";
  content: string | null;
  tool_calls?: ToolCall[];
}
export interface ToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export interface ToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

const toolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

/** Checks a message read back from the database; the shapes are the ones written above, nothing looser. */
const storedMessageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("user"), content: z.string() }),
  z.object({
    role: z.literal("assistant"),
    content: z.string().nullable(),
    tool_calls: z.array(toolCallSchema).optional(),
  }),
  z.object({ role: z.literal("tool"), tool_call_id: z.string().min(1), content: z.string() }),
]);

/** Stored messages as chat messages; anything malformed is dropped (the history is repaired afterwards). */
export function parseStoredMessages(stored: readonly unknown[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const item of stored) {
    const parsed = storedMessageSchema.safeParse(item);
    if (parsed.success) out.push(parsed.data as ChatMessage);
  }
  return out;
}

// Keeps a conversation's memory within a character budget as well as a message count: the oldest turns go first.
import type { ChatMessage } from "./chat-messages.ts";

/** What the remembered conversation may cost in characters (as JSON) on each request. */
export const MAX_HISTORY_CHARS = 48_000;

/** The newest messages whose JSON fits `maxChars`, starting with a person's message so the model reads whole turns. */
export function boundHistory(messages: readonly ChatMessage[], maxChars = MAX_HISTORY_CHARS): ChatMessage[] {
  let total = 0;
  let start = messages.length;
  while (start > 0) {
    const size = JSON.stringify(messages[start - 1]).length;
    if (total + size > maxChars) break;
    total += size;
    start--;
  }
  while (start < messages.length && messages[start]!.role !== "user") start++;
  return messages.slice(start);
}

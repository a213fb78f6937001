// A conversation's memory: the key of a channel's (or thread's) conversation, its recent turns loaded, a turn stored.
import type { CommandContext } from "../../commands/types.ts";
import { channelLabel } from "../../db/channel-key.ts";
import type { ConversationKey, ConversationsRepo } from "../../db/conversations.ts";
import type { Logger } from "../../src/log.ts";
import type { Redactor } from "../../src/redact.ts";
import type { TurnResult } from "./agent-loop.ts";
import { boundHistory } from "./bound-history.ts";
import { parseStoredMessages, type ChatMessage } from "./chat-messages.ts";
import { capAnswer, closingNote } from "./chat-reply.ts";
import { repairHistory } from "./repair-history.ts";

export interface ChatMemoryOptions {
  conversations: ConversationsRepo;
  /** Messages kept per conversation; 0 turns memory off. */
  historyMessages: number;
  maxIterations: number;
  redact: Redactor;
  log: Logger;
}

export interface ChatMemory {
  /** The conversation's recent turns, repaired and bounded; empty when memory is off or cannot be read. */
  load(key: ConversationKey): ChatMessage[];
  /** Stores a turn (redacted) and trims the conversation; a failure is logged, not thrown. */
  remember(key: ConversationKey, result: TurnResult): void;
}

export function conversationKey(ctx: CommandContext): ConversationKey {
  return {
    platform: ctx.channel.platform,
    workspace: ctx.channel.workspace,
    channel: ctx.channel.channel,
    thread: ctx.thread ?? "",
  };
}

export function createChatMemory({
  conversations,
  historyMessages,
  maxIterations,
  redact,
  log,
}: ChatMemoryOptions): ChatMemory {
  return {
    load(key) {
      if (historyMessages === 0) return [];
      try {
        return boundHistory(repairHistory(parseStoredMessages(conversations.recent(key, historyMessages))));
      } catch (err) {
        // Memory is a help, not a precondition: answer without it rather than not at all.
        log.error("chat: loading the conversation failed", { conversation: channelLabel(key), err });
        return [];
      }
    },

    remember(key, result) {
      if (historyMessages === 0 || (result.error && result.outcomes.length === 0)) return;
      const note = closingNote(result, maxIterations);
      // A huge answer is remembered as cut as it was shown: it is sent back to the model on every later turn.
      const capped = result.turn.map((m): ChatMessage =>
        m.role === "assistant" && m.content ? { ...m, content: capAnswer(m.content) } : m,
      );
      const turn: ChatMessage[] = note ? [...capped, { role: "assistant", content: note }] : capped;
      try {
        // Stored redacted: the database is read back into prompts, and by people with file access.
        conversations.append(
          key,
          turn.map((m) => JSON.parse(redact(JSON.stringify(m))) as ChatMessage),
        );
        conversations.trim(key, historyMessages);
      } catch (err) {
        log.error("chat: saving the conversation failed", { conversation: channelLabel(key), err });
      }
    },
  };
}

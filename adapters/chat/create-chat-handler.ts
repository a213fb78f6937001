// The chat entry point adapters call for plain-language messages: memory, system prompt, agent loop, reply. Never throws.
import { COMMANDS } from "../../commands/index.ts";
import type { AnyCommand, CommandContext } from "../../commands/types.ts";
import { channelLabel } from "../../db/channel-key.ts";
import { createConversationsRepo } from "../../db/conversations.ts";
import { RlError, asRlError } from "../../src/errors.ts";
import { withTokenPatterns } from "../../src/redact.ts";
import type { Reply } from "../../src/reply.ts";
import type { Services } from "../../src/services.ts";
import { createChatAnswer } from "./chat-answer.ts";
import { chatHelpReply } from "./chat-help.ts";
import { createChatMemory } from "./chat-memory.ts";
import { chatRefusal } from "./chat-refusal.ts";
import { chatErrorReply } from "./chat-reply.ts";
import { createChatRequestBuilder } from "./chat-request.ts";
import { createLlmClient } from "./llm-client.ts";
import { DEFAULT_MAX_TOOL_RESULT_CHARS } from "./tool-result-content.ts";

export type ChatHandler = (text: string, ctx: CommandContext) => Promise<Reply>;

export const CHAT_DEFAULTS = {
  /** Model requests per message; each may call several tools. */
  maxIterations: 8,
  /** Messages of a conversation kept (and sent back to the model) as its memory. */
  historyMessages: 40,
  timeoutMs: 60_000,
  maxMessageChars: 4_000,
  maxToolResultChars: DEFAULT_MAX_TOOL_RESULT_CHARS,
} as const;

/** The endpoint and limits; config.llm supplies them (the limits once LLM_MAX_ITERATIONS etc. are settings). */
export interface LlmSettings {
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  maxIterations?: number;
  historyMessages?: number;
  timeoutMs?: number;
}

export interface ChatOptions {
  /** Injected for tests; default globalThis.fetch. */
  fetch?: typeof globalThis.fetch;
  /** Default: the registry. */
  commands?: readonly AnyCommand[];
  /** Default: services.config.llm. */
  llm?: LlmSettings;
  /** Each of these wins over the same setting in `llm`. */
  maxIterations?: number;
  historyMessages?: number;
  timeoutMs?: number;
  maxMessageChars?: number;
  maxToolResultChars?: number;
}

export function createChatHandler(services: Services, options: ChatOptions = {}): ChatHandler {
  const commands = options.commands ?? COMMANDS;
  const llm: LlmSettings = options.llm ?? services.config.llm;
  const maxMessageChars = options.maxMessageChars ?? CHAT_DEFAULTS.maxMessageChars;
  const { baseUrl, model } = llm;
  if (!baseUrl || !model) {
    return async () => chatHelpReply(commands, "no-llm");
  }
  const maxIterations = Math.max(1, options.maxIterations ?? llm.maxIterations ?? CHAT_DEFAULTS.maxIterations);
  const historyMessages = Math.max(0, options.historyMessages ?? llm.historyMessages ?? CHAT_DEFAULTS.historyMessages);
  const timeoutMs = options.timeoutMs ?? llm.timeoutMs ?? CHAT_DEFAULTS.timeoutMs;
  const maxResultChars = options.maxToolResultChars ?? CHAT_DEFAULTS.maxToolResultChars;
  const { log } = services;
  // What is kept of a conversation is what the provider sees: no token-shaped string of any service in either.
  const redact = withTokenPatterns(services.redact);
  const client = createLlmClient({
    baseUrl,
    apiKey: llm.apiKey,
    model,
    fetch: options.fetch,
    timeoutMs,
    redact,
    now: services.now,
  });
  const memory = createChatMemory({
    conversations: createConversationsRepo(services.db, services.now),
    historyMessages,
    maxIterations,
    redact,
    log,
  });
  const buildRequest = createChatRequestBuilder({ services, commands, client, memory, maxIterations, maxResultChars });
  const answer = createChatAnswer({ services, memory, buildRequest, maxIterations });

  return async (raw, ctx) => {
    const text = raw.trim();
    const refused = chatRefusal(services, ctx);
    if (refused) return refused;
    if (text === "") return chatHelpReply(commands, "empty");
    if (text.length > maxMessageChars) {
      const err = new RlError(
        "USAGE",
        `Your message is ${text.length.toLocaleString("en")} characters; the limit is ${maxMessageChars.toLocaleString("en")}. Shorten it, or use /rl commands.`,
        {
          details: { length: text.length, limit: maxMessageChars },
        },
      );
      return chatErrorReply(err, redact, true);
    }
    try {
      return await answer(text, ctx);
    } catch (err) {
      log.error("chat failed", { channel: channelLabel(ctx.channel), user: ctx.user.id, err });
      return chatErrorReply(asRlError(err), redact);
    }
  };
}

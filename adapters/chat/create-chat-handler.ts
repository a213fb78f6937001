// The chat entry point adapters call for plain-language messages: memory, system prompt, agent loop, reply. Never throws.
import { COMMANDS } from "../../commands/index.ts";
import type { AnyCommand, CommandContext } from "../../commands/types.ts";
import { channelLabel } from "../../db/channel-key.ts";
import { createConversationsRepo, type ConversationKey } from "../../db/conversations.ts";
import { RlError, asRlError } from "../../src/errors.ts";
import { accessOf, allows, refusalMessage } from "../../src/policy.ts";
import { redactDeep } from "../../src/redact.ts";
import type { Reply } from "../../src/reply.ts";
import type { Services } from "../../src/services.ts";
import { runTurn, type TurnResult } from "./agent-loop.ts";
import { boundHistory } from "./bound-history.ts";
import { buildTools } from "./build-tools.ts";
import { chatHelpReply } from "./chat-help.ts";
import { parseStoredMessages, type ChatMessage } from "./chat-messages.ts";
import { capAnswer, chatErrorReply, closingNote, turnReply } from "./chat-reply.ts";
import { createLlmClient } from "./llm-client.ts";
import { repairHistory } from "./repair-history.ts";
import { createSerializer } from "./serialize-by-key.ts";
import { buildSystemPrompt } from "./system-prompt.ts";
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
  const { redact, log } = services;
  const tools = buildTools(commands);
  const permissionOf = new Map(commands.flatMap((c) => (c.toolName ? [[c.toolName, c.permission] as const] : [])));
  const client = createLlmClient({
    baseUrl,
    apiKey: llm.apiKey,
    model,
    fetch: options.fetch,
    timeoutMs,
    redact,
    now: services.now,
  });
  const conversations = createConversationsRepo(services.db, services.now);
  const serialize = createSerializer();

  const loadHistory = (key: ConversationKey): ChatMessage[] => {
    if (historyMessages === 0) return [];
    try {
      return boundHistory(repairHistory(parseStoredMessages(conversations.recent(key, historyMessages))));
    } catch (err) {
      // Memory is a help, not a precondition: answer without it rather than not at all.
      log.error("chat: loading the conversation failed", { conversation: channelLabel(key), err });
      return [];
    }
  };

  const remember = (key: ConversationKey, result: TurnResult): void => {
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
  };

  const answer = async (text: string, ctx: CommandContext): Promise<Reply> => {
    const key: ConversationKey = {
      platform: ctx.channel.platform,
      workspace: ctx.channel.workspace,
      channel: ctx.channel.channel,
      thread: ctx.thread ?? "",
    };
    // Progress is a courtesy: a platform hiccup while showing it must not end the turn.
    const progress = async (line: string): Promise<void> => {
      try {
        await ctx.progress?.(line);
      } catch (err) {
        log.debug("chat: progress update failed", { err });
      }
    };
    const toolCtx: CommandContext = { ...ctx, via: "chat", progress };
    // The model is offered only what this person may run: a read-only person's turns are not spent on refusals.
    const role = accessOf(services.config.policy, ctx.channel, ctx.user).role;
    const offered = tools.filter((t) => allows(role, permissionOf.get(t.function.name) ?? "admin"));
    return serialize(channelLabel(key) + "\u0000" + (key.thread ?? ""), async () => {
      const result = await runTurn({
        client,
        tools: offered,
        system: buildSystemPrompt({
          commands,
          channel: ctx.channel,
          userName: ctx.user.name ?? ctx.user.id,
          selectedEnvironment: services.channels.selectedEnvironment(ctx.channel),
        }),
        history: loadHistory(key),
        // A secret pasted into chat (a key the bot holds) is not passed on to the model's provider.
        userText: redact(text),
        ctx: toolCtx,
        commands,
        maxIterations,
        maxResultChars,
      });
      if (result.error)
        log.warn("chat: the language model request failed", {
          conversation: channelLabel(key),
          code: result.error.code,
          details: result.error.details,
        });
      remember(key, result);
      // The whole reply, data included (the model's raw answer is in it), leaves without secrets.
      return redactDeep(turnReply(result, maxIterations, redact), redact);
    });
  };

  /** A person with no access here (outside RL_CHANNEL_ALLOWLIST, or RL_DEFAULT_ROLE=none) does not get the model's time. */
  const refusal = (ctx: CommandContext): Reply | undefined => {
    const { policy } = services.config;
    const access = accessOf(policy, ctx.channel, ctx.user);
    if (allows(access.role, "read")) return undefined;
    const err = new RlError("FORBIDDEN", refusalMessage(policy, access, "Asking me in plain words", "read"), {
      details: { needed: "read", role: access.role },
    });
    try {
      services.audit.record({
        ...ctx.channel,
        userId: ctx.user.id,
        command: "chat",
        args: {},
        outcome: "refused",
        detail: err.message,
      });
    } catch (auditErr) {
      log.error("audit write failed", { command: "chat", err: auditErr });
    }
    return chatErrorReply(err, redact, true);
  };

  return async (raw, ctx) => {
    const text = raw.trim();
    const refused = refusal(ctx);
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

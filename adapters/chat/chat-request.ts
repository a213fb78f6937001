// The model's request for one message: the tools this person may run, the system prompt, the memory, the redacted text.
import type { AnyCommand, CommandContext } from "../../commands/types.ts";
import type { ConversationKey } from "../../db/conversations.ts";
import { accessOf, allows } from "../../src/policy.ts";
import { withTokenPatterns } from "../../src/redact.ts";
import type { Services } from "../../src/services.ts";
import type { TurnInput } from "./agent-loop.ts";
import { buildTools } from "./build-tools.ts";
import type { ChatMemory } from "./chat-memory.ts";
import type { LlmClient } from "./llm-client.ts";
import { buildSystemPrompt } from "./system-prompt.ts";

export interface ChatRequestOptions {
  services: Services;
  commands: readonly AnyCommand[];
  client: LlmClient;
  memory: ChatMemory;
  maxIterations: number;
  maxResultChars: number;
}

export type BuildChatRequest = (text: string, ctx: CommandContext, key: ConversationKey) => TurnInput;

export function createChatRequestBuilder({
  services,
  commands,
  client,
  memory,
  maxIterations,
  maxResultChars,
}: ChatRequestOptions): BuildChatRequest {
  const { log } = services;
  const redact = withTokenPatterns(services.redact);
  const tools = buildTools(commands);
  const permissionOf = new Map(commands.flatMap((c) => (c.toolName ? [[c.toolName, c.permission] as const] : [])));
  return (text, ctx, key) => {
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
    return {
      client,
      tools: offered,
      system: buildSystemPrompt({
        commands,
        channel: ctx.channel,
        userName: ctx.user.name ?? ctx.user.id,
        selectedEnvironment: services.channels.selectedEnvironment(ctx.channel),
      }),
      history: memory.load(key),
      // A secret pasted into chat (a key the bot holds, or any service's token) is not passed on to the provider.
      userText: redact(text),
      ctx: toolCtx,
      commands,
      maxIterations,
      maxResultChars,
    };
  };
}

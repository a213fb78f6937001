// Answers one message with the model: one turn at a time per conversation, remembered, and redacted on the way out.
import type { CommandContext } from "../../commands/types.ts";
import { channelLabel } from "../../db/channel-key.ts";
import { redactDeep } from "../../src/redact.ts";
import type { Reply } from "../../src/reply.ts";
import type { Services } from "../../src/services.ts";
import { runTurn } from "./agent-loop.ts";
import { conversationKey, type ChatMemory } from "./chat-memory.ts";
import { turnReply } from "./chat-reply.ts";
import type { BuildChatRequest } from "./chat-request.ts";
import { createSerializer } from "./serialize-by-key.ts";

export interface ChatAnswerOptions {
  services: Services;
  memory: ChatMemory;
  buildRequest: BuildChatRequest;
  maxIterations: number;
}

export type ChatAnswer = (text: string, ctx: CommandContext) => Promise<Reply>;

export function createChatAnswer({ services, memory, buildRequest, maxIterations }: ChatAnswerOptions): ChatAnswer {
  const { redact, log } = services;
  const serialize = createSerializer();
  return async (text, ctx) => {
    const key = conversationKey(ctx);
    return serialize(channelLabel(key) + "\u0000" + (key.thread ?? ""), async () => {
      const result = await runTurn(buildRequest(text, ctx, key));
      if (result.error)
        log.warn("chat: the language model request failed", {
          conversation: channelLabel(key),
          code: result.error.code,
          details: result.error.details,
        });
      memory.remember(key, result);
      // The whole reply, data included (the model's raw answer is in it), leaves without secrets.
      return redactDeep(turnReply(result, maxIterations, redact), redact);
    });
  };
}

// The agent loop of one turn: ask the model, run the tools it calls in order, feed the results back, until it answers.
import { randomUUID } from "node:crypto";
import type { AnyCommand, CommandContext } from "../../commands/types.ts";
import { asRlError, type RlError } from "../../src/errors.ts";
import type { AssistantMessage, ChatMessage, ToolDefinition } from "./chat-messages.ts";
import type { LlmClient } from "./llm-client.ts";
import { runToolCall, type ToolOutcome } from "./run-tool-call.ts";
import { errorContent, toolResultContent } from "./tool-result-content.ts";

export interface TurnInput {
  client: LlmClient;
  tools: readonly ToolDefinition[];
  system: string;
  /** Earlier turns of this conversation, already repaired. */
  history: readonly ChatMessage[];
  userText: string;
  /** The asking person's context with via "chat": tools run with their permissions in their channel. */
  ctx: CommandContext;
  commands: readonly AnyCommand[];
  maxIterations: number;
  maxResultChars: number;
  /** Tool calls run from one model message, and in the whole turn; calls past either are answered "not run". */
  maxToolCallsPerMessage?: number;
  maxToolCallsPerTurn?: number;
}

/** A model asking for hundreds of calls at once is astray: these many run, and it hears why the rest did not. */
export const TOOL_CALL_LIMITS = { perMessage: 20, perTurn: 40 } as const;

/** Which limit stopped tool calls this turn, and how many calls were not run because of it. */
export interface ToolCallCap {
  kind: "message" | "turn";
  limit: number;
  skipped: number;
}

export interface TurnResult {
  /** This turn's messages, in order, to store: the person's, the model's (with tool calls), the tool results, the answer. */
  turn: ChatMessage[];
  outcomes: ToolOutcome[];
  /** Requests made to the model. */
  iterations: number;
  /** The model's final answer, when it gave one. */
  answer?: string;
  /** Set when the model was still calling tools after maxIterations requests. */
  limitReached?: boolean;
  /** Set when the endpoint failed; the turn holds what happened before. */
  error?: RlError;
  /** Set when calls were not run because of a limit on tool calls. */
  toolCap?: ToolCallCap;
}

/** A name the model wrote, made safe to show as progress. */
function shownName(name: string): string {
  return name.replace(/[^\w-]/g, "").slice(0, 64) || "a tool";
}

/** Providers occasionally repeat or omit ids; the results are matched by id, so they must be unique in a message. */
function withUniqueIds(message: AssistantMessage): AssistantMessage {
  const seen = new Set<string>();
  const calls = message.tool_calls?.map((call, k) => {
    const id = seen.has(call.id) ? `${call.id}_${k}` : call.id;
    seen.add(id);
    return id === call.id ? call : { ...call, id };
  });
  return calls ? { ...message, tool_calls: calls } : message;
}

export async function runTurn(input: TurnInput): Promise<TurnResult> {
  const { client, tools, system, history, commands, maxIterations, maxResultChars } = input;
  const perMessage = Math.max(1, input.maxToolCallsPerMessage ?? TOOL_CALL_LIMITS.perMessage);
  const perTurn = Math.max(1, input.maxToolCallsPerTurn ?? TOOL_CALL_LIMITS.perTurn);
  let toolCap: ToolCallCap | undefined;
  // Each person's message is its own turn: limits on the model's polling (rl_check_status) last this turn only.
  const ctx: CommandContext = { ...input.ctx, turn: randomUUID() };
  const turn: ChatMessage[] = [{ role: "user", content: input.userText }];
  const outcomes: ToolOutcome[] = [];
  const { redact } = ctx.services;
  const progress = async (text: string): Promise<void> => {
    await ctx.progress?.(text);
  };

  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    await progress("Thinking…");
    let message: AssistantMessage;
    let finishReason: string | undefined;
    try {
      ({ message, finishReason } = await client([{ role: "system", content: system }, ...history, ...turn], tools));
    } catch (err) {
      return { turn, outcomes, iterations: iteration, error: asRlError(err), ...(toolCap ? { toolCap } : {}) };
    }
    if (!message.tool_calls?.length) {
      const answer =
        message.content?.trim() ||
        `The model gave no answer${finishReason && finishReason !== "stop" ? ` (it stopped because of "${finishReason}")` : ""}.`;
      turn.push({ role: "assistant", content: redact(answer) });
      return { turn, outcomes, iterations: iteration, answer, ...(toolCap ? { toolCap } : {}) };
    }
    const request = withUniqueIds(message);
    // What goes back to the provider (and into memory) carries no secret, even one the model wrote itself.
    turn.push(JSON.parse(redact(JSON.stringify(request))) as AssistantMessage);
    // In order, one at a time: later calls may depend on earlier ones (select, then read the config).
    for (const [k, call] of (request.tool_calls ?? []).entries()) {
      const cap = outcomes.length >= perTurn ? "turn" : k >= perMessage ? "message" : undefined;
      if (cap) {
        // Every call gets its answer (the protocol wants one per id): this one says why it did not run.
        const limit = cap === "turn" ? perTurn : perMessage;
        toolCap = { kind: toolCap?.kind === "turn" ? "turn" : cap, limit, skipped: (toolCap?.skipped ?? 0) + 1 };
        turn.push({ role: "tool", tool_call_id: call.id, content: capContent(cap, limit, redact) });
        continue;
      }
      await progress(`Running ${shownName(call.function.name)}…`);
      const outcome = await runToolCall(call, { ctx, commands, maxResultChars });
      outcomes.push(outcome);
      turn.push({ role: "tool", tool_call_id: call.id, content: outcome.content });
    }
  }
  return { turn, outcomes, iterations: maxIterations, limitReached: true, ...(toolCap ? { toolCap } : {}) };
}

/** What the model reads for a call a limit stopped: not run, which limit, and what to do instead. */
function capContent(cap: "message" | "turn", limit: number, redact: (text: string) => string): string {
  const message =
    cap === "message"
      ? `Not run: at most ${limit} tool calls run from one message. Ask for this one again in your next message if it is still needed.`
      : `Not run: this turn has used its ${limit} tool calls. Answer the person now with what you have, and say what is left undone.`;
  return toolResultContent(errorContent({ code: "TOOL_CALL_LIMIT", message }), redact, 1_000);
}

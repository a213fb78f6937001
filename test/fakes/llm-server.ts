// A local OpenAI-compatible chat-completions server on 127.0.0.1 for tests: checks the key, records requests, answers from a script.
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { invalidRequest, type ChatRequestBody } from "./llm-validate.ts";
import { readBody, safeJson, send } from "./http-helpers.ts";

export type { ChatRequestBody, FakeMessage, FakeTool, FakeToolCall } from "./llm-validate.ts";

/** One scripted answer. */
export type LlmStep =
  /** The model calls tools (finish_reason "tool_calls"); arguments as a string are sent verbatim (malformed on purpose). */
  | {
      toolCalls: ReadonlyArray<{ name: string; arguments?: string | Record<string, unknown>; id?: string }>;
      content?: string;
    }
  /** The model answers in words (finish_reason "stop"). */
  | { text: string; finishReason?: string }
  /** An HTTP error: 429 with {headers: {"Retry-After": "7"}}, 500, 401, ... */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** A 200 with this exact body (not JSON, or JSON that is not a completion). */
  | { raw: string }
  /** Answer `then` after `delayMs` (a slow endpoint; the client's timeout should fire first). */
  | { delayMs: number; then?: LlmStep };

/** A step, or a function choosing one from the request (e.g. after reading the tool results). */
export type LlmAnswer = LlmStep | ((request: RecordedLlmRequest) => LlmStep);

export interface RecordedLlmRequest {
  path: string;
  authorization: string | undefined;
  body: ChatRequestBody;
  /** The HTTP status answered; 0 while the answer is pending. */
  status: number;
}

export interface FakeLlmOptions {
  /** The bearer key to expect; undefined accepts any request (a local server with no key). */
  apiKey?: string;
}

export interface FakeLlm {
  /** The base URL to configure as LLM_BASE_URL (…/v1). */
  baseUrl: string;
  port: number;
  /** Every POST received, in order. */
  requests: RecordedLlmRequest[];
  /** Queue answers for the next requests, in order. */
  script(...answers: LlmAnswer[]): void;
  /** Scripted answers not used yet. */
  pending(): number;
  close(): Promise<void>;
}

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const queue: LlmAnswer[] = [];
  const requests: RecordedLlmRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let completions = 0;
  let calls = 0;

  const completion = (
    body: ChatRequestBody,
    step: Extract<LlmStep, { text: string } | { toolCalls: unknown }>,
  ): Record<string, unknown> => {
    completions++;
    const message =
      "text" in step
        ? { role: "assistant", content: step.text }
        : {
            role: "assistant",
            content: step.content ?? null,
            tool_calls: step.toolCalls.map((c) => ({
              id: c.id ?? `call_${++calls}`,
              type: "function",
              function: {
                name: c.name,
                arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
              },
            })),
          };
    return {
      id: `chatcmpl-fake${completions}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          message,
          logprobs: null,
          finish_reason: "text" in step ? (step.finishReason ?? "stop") : "tool_calls",
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
  };

  const answerStep = async (res: ServerResponse, recorded: RecordedLlmRequest, step: LlmStep): Promise<void> => {
    const answer = (status: number, payload: unknown, headers: Record<string, string> = {}): void => {
      recorded.status = status;
      send(res, status, payload, headers);
    };
    if ("delayMs" in step) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, step.delayMs);
        timers.add(timer);
      });
      return answerStep(res, recorded, step.then ?? { text: "(slow answer)" });
    }
    if ("status" in step)
      return answer(
        step.status,
        step.body ?? { error: { message: `fake LLM: HTTP ${step.status}`, type: "server_error", code: null } },
        step.headers,
      );
    if ("raw" in step) return answer(200, step.raw);
    return answer(200, completion(recorded.body, step));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = req.url?.split("?")[0] ?? "";
    if (req.method !== "POST" || (path !== "/v1/chat/completions" && path !== "/chat/completions")) {
      return send(res, 404, {
        error: {
          message: `Unknown request URL: ${req.method} ${path}`,
          type: "invalid_request_error",
          code: "unknown_url",
        },
      });
    }
    const text = await readBody(req, 10 * 1024 * 1024);
    const parsed = safeJson(text);
    const recorded: RecordedLlmRequest = {
      path,
      authorization: req.headers.authorization,
      body: parsed as ChatRequestBody,
      status: 0,
    };
    requests.push(recorded);
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      recorded.status = 401;
      // Like the real thing, the refusal quotes the key it was given: clients must not pass this text on.
      const given = req.headers.authorization?.replace(/^Bearer\s+/i, "") ?? "";
      return send(res, 401, {
        error: {
          message: `Incorrect API key provided: ${given}.`,
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      });
    }
    const invalid = invalidRequest(parsed);
    if (invalid) {
      recorded.status = 400;
      return send(res, 400, {
        error: { message: invalid, type: "invalid_request_error", param: "messages", code: null },
      });
    }
    const next = queue.shift();
    if (!next) {
      recorded.status = 500;
      return send(res, 500, {
        error: { message: "fake LLM: no scripted answer left for this request", type: "server_error", code: null },
      });
    }
    return answerStep(res, recorded, typeof next === "function" ? next(recorded) : next);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) =>
      send(res, 500, { error: { message: err instanceof Error ? err.message : String(err) } }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    script: (...answers) => void queue.push(...answers),
    pending: () => queue.length,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      // A client that gave up on a slow answer may leave its socket open.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

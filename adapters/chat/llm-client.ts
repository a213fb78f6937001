// One chat-completions request to any OpenAI-compatible endpoint (OpenRouter, vLLM, Ollama, OpenAI) over fetch.
import { RlError } from "../../src/errors.ts";
import { redactDeep, redactTokens, type Redactor } from "../../src/redact.ts";
import { retryTransient } from "../../src/retry-transient.ts";
import type { ChatMessage, ToolDefinition } from "./chat-messages.ts";
import { httpError, transportError } from "./llm-errors.ts";
import { parseCompletion, type Completion } from "./parse-completion.ts";
import { readCappedBody } from "./read-capped-body.ts";

export interface LlmClientOptions {
  /** e.g. https://openrouter.ai/api/v1; "/chat/completions" is appended. */
  baseUrl: string;
  /** Optional: local servers (vLLM, Ollama) often need none. */
  apiKey?: string;
  model: string;
  fetch?: typeof globalThis.fetch;
  /** Covers the whole exchange, reading the body included. */
  timeoutMs: number;
  redact: Redactor;
  now?: () => number;
}

export type LlmClient = (messages: readonly ChatMessage[], tools: readonly ToolDefinition[]) => Promise<Completion>;

export function createLlmClient({
  baseUrl,
  apiKey,
  model,
  fetch = globalThis.fetch,
  timeoutMs,
  redact: redactSecrets,
  now = Date.now,
}: LlmClientOptions): LlmClient {
  const endpoint = `${baseUrl.replace(/\/+$/, "")}/chat/completions`;
  // The key is scrubbed here as well as by the service-wide redactor, so a client built with a key the
  // config does not know (tests, a future per-channel key) cannot leak it through an error either.
  const redact = (text: string): string =>
    redactTokens(redactSecrets(apiKey && apiKey.length > 0 ? text.split(apiKey).join("[redacted]") : text));
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
  if (apiKey) headers["Authorization"] = `Bearer ${apiKey}`;

  const once: LlmClient = async (messages, tools) => {
    // The one door to the provider: whatever a message holds (a log line, a sample, a config value, the person's own
    // words), no key of the bot's and no token-shaped string of any other service goes through it.
    const body = JSON.stringify({ model, messages: redactDeep(messages, redact), tools, tool_choice: "auto" });
    let response: Response;
    let text: string;
    try {
      response = await fetch(endpoint, { method: "POST", headers, body, signal: AbortSignal.timeout(timeoutMs) });
      text = await readCappedBody(response);
    } catch (err) {
      if (err instanceof RlError) throw scrub(err, redact);
      throw scrub(transportError(err, timeoutMs), redact);
    }
    if (!response.ok) {
      throw scrub(
        httpError({
          status: response.status,
          retryAfter: response.headers.get("retry-after"),
          body: text,
          now: now(),
        }),
        redact,
      );
    }
    try {
      return parseCompletion(text);
    } catch (err) {
      throw scrub(err, redact);
    }
  };
  // A 429 (after its Retry-After), a 5xx or a reset connection is tried again a few times; 400 and 401 are not.
  return (messages, tools) => retryTransient(() => once(messages, tools));
}

/** Provider text ends up in the message; make sure no secret survives in it. */
function scrub<E>(err: E, redact: (t: string) => string): E {
  if (err instanceof Error) err.message = redact(err.message);
  return err;
}

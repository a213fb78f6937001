// Turns every way the LLM endpoint can fail into an RlError a person can act on, naming the setting to check.
import { RlError } from "../../src/errors.ts";
import { retryAfterSeconds } from "../../src/retry-transient.ts";

const SAID_MAX = 300;

/** The provider's own explanation ({error: {message}} or {message}), for 4xx answers where it helps (bad model name). */
function providerMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const said =
      typeof body.error === "string"
        ? body.error
        : typeof body.error?.message === "string"
          ? body.error.message
          : body.message;
    return typeof said === "string" && said.trim() ? said.trim().slice(0, SAID_MAX) : undefined;
  } catch {
    return undefined;
  }
}

export interface HttpFailure {
  status: number;
  retryAfter: string | null;
  body: string;
  now: number;
}

export function httpError({ status, retryAfter, body, now }: HttpFailure): RlError {
  if (status === 401 || status === 403) {
    // The provider's text is not quoted: a 401 often echoes part of the key.
    return new RlError(
      "UPSTREAM",
      `The language model service (LLM_BASE_URL) refused the API key (HTTP ${status}). Check LLM_API_KEY.`,
      {
        details: { status },
      },
    );
  }
  if (status === 429) {
    const seconds = retryAfterSeconds(retryAfter, now);
    const when = seconds === undefined ? "in a minute" : `in ${seconds} second${seconds === 1 ? "" : "s"}`;
    return new RlError(
      "RATE_LIMITED",
      `The language model service is rate-limiting this bot (HTTP 429). Try again ${when}.`,
      {
        details: { status, ...(seconds === undefined ? {} : { retry_after_seconds: seconds }) },
      },
    );
  }
  if (status >= 500) {
    return new RlError(
      "UPSTREAM",
      `The language model service (LLM_BASE_URL) failed (HTTP ${status}). Try again in a minute.`,
      { details: { status } },
    );
  }
  const said = providerMessage(body);
  const hint =
    status === 404
      ? " Check LLM_BASE_URL (most services end in /v1) and LLM_MODEL."
      : " Check LLM_MODEL and LLM_BASE_URL.";
  return new RlError(
    "UPSTREAM",
    `The language model service (LLM_BASE_URL) rejected the request (HTTP ${status})${said ? `: ${said}` : "."}${hint}`,
    {
      details: { status },
    },
  );
}

export function transportError(err: unknown, timeoutMs: number): RlError {
  const name = err instanceof Error ? err.name : "";
  if (name === "TimeoutError" || name === "AbortError") {
    return new RlError(
      "TIMEOUT",
      `The language model service (LLM_BASE_URL) did not answer within ${Math.round(timeoutMs / 1000)} seconds. Try again, or ask for less at once.`,
      {
        cause: err,
        details: { timeout_ms: timeoutMs },
      },
    );
  }
  // undici puts the real reason (ECONNREFUSED, ENOTFOUND) in cause.
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : undefined;
  const code = (cause as { code?: unknown } | undefined)?.code;
  const reason =
    typeof code === "string" ? code : (cause?.message ?? (err instanceof Error ? err.message : String(err)));
  return new RlError("UPSTREAM", `Could not reach the language model service (${reason}). Check LLM_BASE_URL.`, {
    cause: err,
  });
}

// Another try for a remote request whose failure clears by itself (429 after its Retry-After, 5xx, a reset connection); never for 400/401.
import pRetry from "p-retry";
import { RlError } from "./errors.ts";

export interface RetryPolicy {
  /** Tries after the first. */
  retries: number;
  minDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the caller hears of the limit at once. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 2,
  minDelayMs: 200,
  maxDelayMs: 2000,
  maxRetryAfterMs: 5000,
};

const RESET_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "ETIMEDOUT", "EAI_AGAIN"]);

/** Retry-After is seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.max(0, Math.ceil(Number(trimmed)));
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The error codes along its chain of causes. */
export function causeCodes(err: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
  }
  return codes;
}

function statusOf(err: RlError): number | undefined {
  return typeof err.details.status === "number" ? err.details.status : undefined;
}

/** How long the service asked us to wait (Retry-After), when it said. */
function retryAfterMs(err: RlError): number | undefined {
  const seconds = err.details.retry_after_seconds;
  if (typeof seconds === "number") return seconds * 1000;
  return typeof err.details.retryAfterMs === "number" ? err.details.retryAfterMs : undefined;
}

export function isTransient(err: unknown): boolean {
  if (!(err instanceof RlError)) return false;
  const status = statusOf(err);
  if (status !== undefined) return status === 429 || status >= 500;
  return causeCodes(err).some((c) => RESET_CODES.has(c));
}

/** Run `attempt`, trying again with exponential backoff and jitter while it fails transiently. */
export function retryTransient<T>(attempt: () => Promise<T>, policy: RetryPolicy = DEFAULT_RETRY_POLICY): Promise<T> {
  return pRetry(
    async () => {
      try {
        return await attempt();
      } catch (err) {
        const waitMs = err instanceof RlError ? retryAfterMs(err) : undefined;
        // Not worth another try, or the service asked for a longer pause than the caller can wait.
        if (!isTransient(err) || (waitMs !== undefined && waitMs > policy.maxRetryAfterMs))
          throw new pRetry.AbortError(err as Error);
        throw err;
      }
    },
    {
      retries: policy.retries,
      minTimeout: policy.minDelayMs,
      maxTimeout: policy.maxDelayMs,
      randomize: true,
      // Retry-After is honoured on top of the backoff.
      onFailedAttempt: async (err) => {
        const waitMs = err instanceof RlError ? retryAfterMs(err) : undefined;
        if (waitMs) await new Promise((r) => setTimeout(r, waitMs));
      },
    },
  );
}

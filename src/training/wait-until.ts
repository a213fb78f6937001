// Polls a readiness check until it passes, the deadline passes, or the watched process dies; never a fixed sleep.
import { RlError } from "../errors.ts";

export interface WaitOptions {
  what: string;
  timeoutMs: number;
  intervalMs?: number;
  /** Aborts the wait, e.g. when the process being probed exits. */
  signal?: AbortSignal;
}

/** Wait `ms`, or less when `signal` aborts; `unref` lets the process exit meanwhile (a watcher's poll). */
export const delay = (ms: number, signal?: AbortSignal, options: { unref?: boolean } = {}) =>
  new Promise<void>((resolve) => {
    // The listener goes when the timer fires: a long wait polls many times on one signal.
    const onAbort = () => {
      clearTimeout(t);
      resolve();
    };
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    if (options.unref) t.unref();
    signal?.addEventListener("abort", onAbort, { once: true });
  });

export async function waitUntil(check: () => Promise<boolean>, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const interval = options.intervalMs ?? 200;
  for (;;) {
    if (options.signal?.aborted)
      throw options.signal.reason instanceof Error
        ? options.signal.reason
        : new RlError("PROCESS_FAILED", `${options.what}: stopped waiting`);
    if (await check().catch(() => false)) return;
    if (Date.now() >= deadline) {
      throw new RlError(
        "TIMEOUT",
        `${options.what} was not ready after ${Math.round(options.timeoutMs / 1000)} s. Check its log (/rl logs), or raise RL_READY_TIMEOUT_SECONDS.`,
      );
    }
    await delay(Math.min(interval, Math.max(0, deadline - Date.now())), options.signal);
  }
}

/** True when an HTTP GET answers 2xx within a second. */
export async function httpAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

// How long a failed post waits before its next attempt, and when the outbox gives up on it.

export interface RetryPolicy {
  baseBackoffMs: number;
  maxBackoffMs: number;
  maxAttempts: number;
}

/** The wait after the `attempts`-th failure, doubling from the base up to the cap; undefined once attempts are spent. */
export function retryDelayAfter(attempts: number, policy: RetryPolicy): number | undefined {
  if (attempts >= policy.maxAttempts) return undefined;
  return Math.min(policy.maxBackoffMs, policy.baseBackoffMs * 2 ** (attempts - 1));
}

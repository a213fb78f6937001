// What a platform's refusal of a post means for the outbox: wait as told, stop for good, or try again with backoff.
import { RlError } from "../errors.ts";

/**
 * The neutral verdict each platform's classifier (adapters/<platform>/<platform>-delivery-failure.ts) gives.
 * `permanent` is the platform's reason (channel_not_found, Missing Access (50001), ...) and `hint` what a person can do.
 */
export type DeliveryFailure = { retryAfterMs: number } | { permanent: string; hint: string } | { transient: true };

/** The error a poster throws: UPSTREAM, with the verdict in its details for the outbox to read. */
export function deliveryError(
  message: string,
  failure: DeliveryFailure,
  options: { cause?: unknown; details?: Record<string, unknown> } = {},
): RlError {
  return new RlError("UPSTREAM", message, { cause: options.cause, details: { ...options.details, ...failure } });
}

/** The verdict carried by an error; anything without one is transient. */
export function deliveryFailureOf(err: RlError): DeliveryFailure {
  const { retryAfterMs, permanent, hint } = err.details;
  if (typeof permanent === "string") return { permanent, hint: typeof hint === "string" ? hint : "" };
  if (typeof retryAfterMs === "number" && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) return { retryAfterMs };
  return { transient: true };
}

/** How /rl status and the log say it: "not_in_channel — invite the bot to the channel". */
export function describeUndeliverable(failure: { permanent: string; hint: string }): string {
  return failure.hint ? `${failure.permanent} — ${failure.hint}` : failure.permanent;
}

// Discord's REST managers: logging the rate limits and 5xx retries discord.js handles itself, and the outbox's own manager.
import { REST, RESTEvents } from "discord.js";
import type { Logger } from "../../src/log.ts";

// discord.js waits out 429s (the outbox's REST hands them back) and retries 5xx itself; these say it happened.
// 4xx reach the handlers as errors.
export function watchRest(rest: REST, log: Logger): void {
  rest.on(RESTEvents.RateLimited, (info) =>
    log.warn("discord: rate limited", {
      route: info.route,
      method: info.method,
      retryAfterMs: info.retryAfter,
      global: info.global,
      scope: info.scope,
    }),
  );
  rest.on(RESTEvents.Response, (request, response) => {
    if (response.status === 429) {
      log.warn("discord: rate limited", {
        route: request.route,
        method: request.method,
        retryAfterSeconds: response.headers.get("retry-after"),
      });
    } else if (response.status >= 500) {
      log.warn("discord: server error, retrying", {
        route: request.route,
        method: request.method,
        status: response.status,
        retries: request.retries,
      });
    }
  });
}

/**
 * The outbox's posts go through their own REST manager that rejects on a rate limit (RateLimitError with
 * retryAfter) instead of holding the message in memory: the outbox then owns the wait, durably. Interaction
 * answers keep the client's manager, which waits, since they must land within Discord's time limits.
 */
export function createOutboxRest(token: string, apiUrl: string | undefined, log: Logger): REST {
  const rest = new REST({
    ...(apiUrl ? { api: apiUrl.replace(/\/+$/, "") } : {}),
    rejectOnRateLimit: () => true,
  }).setToken(token);
  watchRest(rest, log);
  return rest;
}

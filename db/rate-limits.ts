// Persisted "last time" stamps for rate limits (status checks by the LLM, digests), so a restart cannot reset them.
import type { Db } from "./open-database.ts";

export interface RateLimitsRepo {
  last(scope: string, key: string): number | undefined;
  stamp(scope: string, key: string, at: number): void;
}

export function createRateLimitsRepo(db: Db): RateLimitsRepo {
  const get = db.prepare<[string, string], { at: number }>("SELECT at FROM rate_limits WHERE scope = ? AND key = ?");
  const put = db.prepare(
    "INSERT INTO rate_limits (scope, key, at) VALUES (?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET at = excluded.at",
  );
  return {
    last: (scope, key) => get.get(scope, key)?.at,
    stamp: (scope, key, at) => void put.run(scope, key, at),
  };
}

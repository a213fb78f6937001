// JSON for stored config values, which may hold a float JSON cannot write: inf and -inf, which pydantic takes.

/** The key an infinite float is stored under, as {"$rl_float": "inf"}: JSON itself would write null. */
const FLOAT_KEY = "$rl_float";

function isStoredFloat(value: unknown): value is { [FLOAT_KEY]: "inf" | "-inf" } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const mark = (value as Record<string, unknown>)[FLOAT_KEY];
  return keys.length === 1 && (mark === "inf" || mark === "-inf");
}

export function stringifyConfigJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "number" && !Number.isFinite(v) && !Number.isNaN(v) ? { [FLOAT_KEY]: v > 0 ? "inf" : "-inf" } : v,
  );
}

export function parseConfigJson(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) =>
    isStoredFloat(v) ? (v[FLOAT_KEY] === "inf" ? Infinity : -Infinity) : v,
  ) as unknown;
}

// JSON for what the bot hands out (exec --json, a tool result for the model): an infinite or NaN float, which JSON
// cannot write and JSON.stringify would turn into null, is written as the text pydantic and PyYAML take for it.

/** "inf", "-inf" or "nan" for a float JSON has no number for; the value itself otherwise. */
function writable(_key: string, value: unknown): unknown {
  if (typeof value !== "number" || Number.isFinite(value)) return value;
  if (Number.isNaN(value)) return "nan";
  return value > 0 ? "inf" : "-inf";
}

export function stringifyReplyJson(value: unknown, space?: number): string {
  return JSON.stringify(value, writable, space) ?? "null";
}

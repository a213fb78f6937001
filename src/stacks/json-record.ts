// One record of a JSON-lines file a trainer writes (metrics, checkpoints, rollouts): an object, or nothing.

/** The line's JSON object; undefined for a blank line or one that is not one (damaged, or cut by a crash). */
export function jsonRecord(line: string | undefined): Record<string, unknown> | undefined {
  if (!line?.trim()) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

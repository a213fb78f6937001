// Short, readable renderings of config values and durations for replies.
export function formatValue(value: unknown): string {
  if (value === undefined) return "(unknown)";
  if (value === null) return "none";
  if (typeof value === "string") return value === "" ? '""' : value;
  return JSON.stringify(value);
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s % 60}s`;
  return `${s}s`;
}

// Short, readable renderings of config values and durations for replies.

/** Text that would read as something else bare: empty, spaces at an end, or a word that means None. */
const MISREAD_BARE = /^$|^\s|\s$|^(?:none|null|~)$/i;

export function formatValue(value: unknown): string {
  if (value === undefined) return "(unknown)";
  if (value === null) return "none";
  // Quoted, so a leading space is seen and the text "none" is not taken for None.
  if (typeof value === "string") return MISREAD_BARE.test(value) ? JSON.stringify(value) : value;
  // Python's names for the floats JSON has none for (pydantic keeps inf).
  if (typeof value === "number" && !Number.isFinite(value))
    return Number.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
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

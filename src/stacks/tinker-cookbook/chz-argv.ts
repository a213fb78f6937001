// A value as chz reads it back from `key=value` argv: Python spellings for None, booleans and literals.

/** A value as Python source (ast.literal_eval reads it back): None, True/False, numbers, quoted text, lists, dicts. */
function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return pythonNumber(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`).join(", ")}}`;
  }
  return JSON.stringify(String(value));
}

function pythonNumber(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  return String(value);
}

/**
 * The text after `key=`: chz casts it by the field's type, so text goes as is, None/True/False in Python's spelling
 * (a `str | None` field reads "None" as None), and lists and dicts as Python literals (chz literal_evals them).
 */
export function chzValue(value: unknown): string {
  return typeof value === "string" ? value : pythonLiteral(value);
}

/** `key=value` arguments in a stable order. */
export function chzArgv(args: Record<string, unknown>): string[] {
  return Object.entries(args).map(([key, value]) => `${key}=${chzValue(value)}`);
}

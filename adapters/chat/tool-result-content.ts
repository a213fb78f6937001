// The text of a tool result the model reads: JSON, redacted, and bounded so one big answer cannot flood the context.
import type { Redactor } from "../../src/redact.ts";

export const DEFAULT_MAX_TOOL_RESULT_CHARS = 8_000;

export interface ToolError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export function errorContent(error: ToolError): Record<string, unknown> {
  return { error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } };
}

/** The longest a string of a result may stay, tried in turn when the whole result is too long. */
const SHORTENED_STRING_LENGTHS = [400, 200, 100, 60, 32];

/** `value` (plain JSON data) with each string redacted, then cut to `limit` characters ending in "…". */
function shortenStrings(value: unknown, limit: number, redact: Redactor): unknown {
  if (typeof value === "string") {
    // Redacted before it is cut: a cut could leave the start of a secret that the redactor no longer recognises.
    const clean = redact(value);
    return clean.length > limit ? `${clean.slice(0, limit - 1)}…` : clean;
  }
  if (Array.isArray(value)) return value.map((item) => shortenStrings(item, limit, redact));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shortenStrings(item, limit, redact)]));
  }
  return value;
}

/**
 * JSON of `value`, redacted, within `maxChars`. A result that is too long first has its long strings cut short (a
 * configuration's descriptions, say), so the model still reads every item and field as valid JSON. Only when that is
 * not enough is the JSON itself cut, with a note saying how much was left out.
 */
export function toolResultContent(value: unknown, redact: Redactor, maxChars = DEFAULT_MAX_TOOL_RESULT_CHARS): string {
  let json: string;
  try {
    json = JSON.stringify(value ?? null) ?? "null";
  } catch {
    json = JSON.stringify(errorContent({ code: "INTERNAL", message: "The result could not be written as JSON." }));
  }
  const text = redact(json);
  if (text.length <= maxChars) return text;
  const plain: unknown = JSON.parse(json);
  for (const limit of SHORTENED_STRING_LENGTHS) {
    const shortened = redact(
      JSON.stringify({
        shortened: `Texts longer than ${limit} characters are cut short, ending in "…" (the whole result is ${text.length} characters). Ask for one item or field to read its whole text.`,
        result: shortenStrings(plain, limit, redact),
      }),
    );
    if (shortened.length <= maxChars) return shortened;
  }
  const note = ` … [truncated: ${text.length} characters in all; ask for less, e.g. fewer lines or one run]`;
  return text.slice(0, Math.max(0, maxChars - note.length)) + note;
}

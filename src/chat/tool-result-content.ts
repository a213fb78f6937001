// The text of a tool result the model reads: JSON, redacted, and bounded so one big answer cannot flood the context.
import type { Redactor } from "../redact.ts";

export const DEFAULT_MAX_TOOL_RESULT_CHARS = 8_000;

export interface ToolError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export function errorContent(error: ToolError): Record<string, unknown> {
  return { error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } };
}

/** JSON of `value`, redacted, cut to `maxChars` with a note saying how much was left out. */
export function toolResultContent(value: unknown, redact: Redactor, maxChars = DEFAULT_MAX_TOOL_RESULT_CHARS): string {
  let json: string;
  try {
    json = JSON.stringify(value ?? null) ?? "null";
  } catch {
    json = JSON.stringify(errorContent({ code: "INTERNAL", message: "The result could not be written as JSON." }));
  }
  const text = redact(json);
  if (text.length <= maxChars) return text;
  const note = ` … [truncated: ${text.length} characters in all; ask for less, e.g. fewer lines or one run]`;
  return text.slice(0, Math.max(0, maxChars - note.length)) + note;
}

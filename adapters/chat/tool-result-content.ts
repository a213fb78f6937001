// The text of a tool result the model reads: JSON, redacted, and bounded so one big answer cannot flood the context.
import type { Redactor } from "../../src/redact.ts";
import { stringifyReplyJson } from "../../src/values/reply-json.ts";

export const DEFAULT_MAX_TOOL_RESULT_CHARS = 8_000;

export interface ToolError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export function errorContent(error: ToolError): Record<string, unknown> {
  return { error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } };
}

/** The longest a text may stay, tried in turn when the whole result is too long; 0 leaves descriptions out. */
const SHORTENED_STRING_LENGTHS = [400, 200, 100, 60, 32];

/** Keys whose text explains rather than states: cut (and at last left out) before any value is touched. */
const DESCRIPTION_KEYS = new Set(["description", "summary", "help"]);

interface Shrink {
  /** Longest a description stays; 0 leaves it out. */
  descriptions: number;
  /** Longest any other text stays. */
  texts: number;
  /** Lists of like objects as { columns, rows }: every value kept, the keys written once. */
  table: boolean;
}

function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** A list whose items are all plain objects with the same keys, written as columns and rows. */
function asTable(items: unknown[]): { columns: string[]; rows: unknown[][] } | undefined {
  if (items.length < 2) return undefined;
  const columns: string[] = [];
  for (const item of items) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) return undefined;
    for (const key of Object.keys(item)) if (!columns.includes(key)) columns.push(key);
  }
  return {
    columns,
    rows: items.map((item) => columns.map((key) => (item as Record<string, unknown>)[key] ?? null)),
  };
}

/** `value` (plain JSON data) with each string redacted, then shrunk as `how` says. */
function shrink(value: unknown, how: Shrink, redact: Redactor, key?: string): unknown {
  if (typeof value === "string") {
    // Redacted before it is cut: a cut could leave the start of a secret that the redactor no longer recognises.
    const clean = redact(value);
    return cut(clean, key !== undefined && DESCRIPTION_KEYS.has(key) ? how.descriptions : how.texts);
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => shrink(item, how, redact));
    return (how.table && asTable(items)) || items;
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).flatMap(([name, item]) =>
        how.descriptions === 0 && DESCRIPTION_KEYS.has(name) && typeof item === "string"
          ? []
          : [[name, shrink(item, how, redact, name)]],
      ),
    );
  }
  return value;
}

/** The ways tried in turn: descriptions shorter and shorter, then lists as tables, then without descriptions, then every text shorter. */
function shrinkSteps(): Shrink[] {
  const lengths = SHORTENED_STRING_LENGTHS;
  return [
    ...lengths.map((descriptions) => ({ descriptions, texts: Infinity, table: false })),
    ...[Infinity, ...lengths, 0].map((descriptions) => ({ descriptions, texts: Infinity, table: true })),
    ...lengths.map((texts) => ({ descriptions: 0, texts, table: true })),
  ];
}

function shrinkNote(how: Shrink, total: number): string {
  const parts = [
    how.descriptions === 0
      ? "Descriptions are left out"
      : how.descriptions !== Infinity
        ? `Descriptions longer than ${how.descriptions} characters are cut short, ending in "…"`
        : undefined,
    how.texts !== Infinity ? `other texts longer than ${how.texts} characters are cut short, ending in "…"` : undefined,
    how.table ? "lists of like objects are written as columns and rows (one row per item)" : undefined,
  ].filter(Boolean);
  return `${parts.join("; ")} (the whole result is ${total} characters). Every item and value is here; ask for one item or field to read its whole text.`;
}

/**
 * JSON of `value`, redacted, within `maxChars`. A result that is too long first has its descriptions cut short (a
 * configuration's, say), then its lists written as columns and rows, then its descriptions left out, then its other
 * long texts cut, so the model still reads every item, field and value as valid JSON. Only when that is not enough is
 * the JSON itself cut, with a note saying how much was left out.
 */
export function toolResultContent(value: unknown, redact: Redactor, maxChars = DEFAULT_MAX_TOOL_RESULT_CHARS): string {
  let json: string;
  try {
    json = stringifyReplyJson(value ?? null);
  } catch {
    json = JSON.stringify(errorContent({ code: "INTERNAL", message: "The result could not be written as JSON." }));
  }
  const text = redact(json);
  if (text.length <= maxChars) return text;
  const plain: unknown = JSON.parse(json);
  for (const how of shrinkSteps()) {
    const shortened = redact(
      JSON.stringify({ shortened: shrinkNote(how, text.length), result: shrink(plain, how, redact) }),
    );
    if (shortened.length <= maxChars) return shortened;
  }
  const note = ` … [truncated: ${text.length} characters in all; ask for less, e.g. fewer lines or one run]`;
  return text.slice(0, Math.max(0, maxChars - note.length)) + note;
}

// Turns the text a person typed into a value of the config field's type, or says exactly what was expected.
import { RlError } from "../errors.ts";
import type { ConfigField, FieldType } from "../environments/types.ts";
import { formatValue } from "./format-value.ts";
import { quoteInput } from "./quote-input.ts";

export const MAX_VALUE_LENGTH = 4_000;
export const MAX_LIST_ITEMS = 256;
/** JSON values (dict, any, lists) nest at most this deep: a config value is data, not a document. */
export const MAX_VALUE_DEPTH = 16;

const TRUE_WORDS = new Set(["true", "yes", "on", "1"]);
const FALSE_WORDS = new Set(["false", "no", "off", "0"]);
/** Bare, these mean None in an Optional field; in quotes ("none") they are text. */
export const NULL_WORDS: ReadonlySet<string> = new Set(["none", "null", "~"]);
const CLOSING_QUOTE: Record<string, string> = { '"': '"', "'": "'", "“": "”", "‘": "’" };

/** A short human description of a type, used in error messages. */
export function describeType(type: FieldType): string {
  switch (type.kind) {
    case "int":
      return "a whole number";
    case "float":
      return "a number";
    case "bool":
      return "true or false";
    case "str":
      return "text";
    case "optional":
      return `${describeType(type.inner)}, or none`;
    case "list":
      return `a list of ${describeType(type.item)} (comma-separated or a JSON array)`;
    case "tuple":
      return `exactly ${type.items.length} items: ${type.items.map(describeType).join("; ")} (comma-separated or a JSON array)`;
    case "enum":
      return `one of ${type.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "dict":
      return type.key && type.value
        ? `a JSON object whose keys are ${describeType(type.key)} and values ${describeType(type.value)}`
        : "a JSON object";
    case "any":
      return "any value";
  }
}

/** A value that is not of its type; `where` names the item inside a list or dict that is wrong. */
class ValueError extends Error {
  constructor(
    readonly where?: string,
    readonly got?: unknown,
    readonly expected?: FieldType,
  ) {
    super("not of the expected type");
  }
}

/** Convert one item of a collection, naming it when it is the one that is wrong (the innermost name wins). */
function convertPart(raw: unknown, type: FieldType, where: string): unknown {
  try {
    return convert(raw, type);
  } catch (err) {
    if (!(err instanceof ValueError)) throw err;
    if (err.where) throw new ValueError(`${where}, ${err.where}`, err.got, err.expected);
    throw new ValueError(where, raw, type);
  }
}

function itemName(index: number): string {
  return `item ${index + 1}`;
}

/** Set items: pydantic keeps one of each; so does the bot, in the order given. */
function uniqueItems(items: unknown[]): unknown[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The text inside one pair of quotes around the whole value (spaces outside them ignored), as it is; else undefined. */
function quotedText(text: string): string | undefined {
  const t = text.trim();
  const close = CLOSING_QUOTE[t[0] ?? ""];
  return t.length >= 2 && close !== undefined && t.endsWith(close) ? t.slice(1, -1) : undefined;
}

function unquote(text: string): string {
  return quotedText(text) ?? text.trim();
}

function parseNumber(text: string, integer: boolean): number {
  const t = text.trim().replace(/(?<=\d)_(?=\d)/g, "");
  const pattern = integer ? /^[+-]?\d+$/ : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
  if (!pattern.test(t)) throw new ValueError();
  const n = Number(t);
  // A float too large for a double is inf to Python and pydantic (float("1e400")); bounds may still refuse it.
  if (integer ? !Number.isSafeInteger(n) : Number.isNaN(n)) throw new ValueError();
  return n;
}

/** pydantic keeps a float's -0.0, but a stored value is JSON, which writes it as 0: refused rather than rewritten. */
function refuseNegativeZero(n: number, kind: "int" | "float"): number {
  if (kind === "float" && Object.is(n, -0))
    throw new RlError(
      "INVALID_VALUE",
      "-0.0 cannot be kept: the bot stores values as JSON, which writes it as 0 (pydantic would keep -0.0). Give 0 if that is what you mean.",
    );
  // An int has no negative zero: pydantic reads "-0" as 0, and so does the bot.
  return kind === "int" && n === 0 ? 0 : n;
}

function splitList(text: string): unknown[] {
  const t = text.trim();
  if (t.startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(t);
    } catch {
      throw new ValueError();
    }
    if (!Array.isArray(parsed)) throw new ValueError();
    return parsed;
  }
  if (t === "") return [];
  return t.split(",").map((s) => s.trim());
}

/** The deepest nesting of arrays and objects in a parsed JSON value. */
function depthOf(value: unknown, limit: number, depth = 0): number {
  if (depth > limit || value === null || typeof value !== "object") return depth;
  let deepest = depth + 1;
  for (const item of Object.values(value)) deepest = Math.max(deepest, depthOf(item, limit, depth + 1));
  return deepest;
}

/** What the value looks like as text, for any JSON value (undefined and the unserialisable become ""). */
function textOf(raw: unknown): string {
  if (typeof raw === "string") return raw;
  try {
    return JSON.stringify(raw) ?? "";
  } catch {
    return "";
  }
}

/** A value given as data (not text) as plain JSON: no undefined, no NaN or Infinity, no class instances. */
function jsonValue(raw: unknown): unknown {
  if (typeof raw === "number" && !Number.isFinite(raw)) throw new ValueError();
  if (typeof raw === "bigint" || typeof raw === "function" || typeof raw === "symbol") throw new ValueError();
  if (raw === null || typeof raw !== "object") return raw;
  let text: string | undefined;
  try {
    text = JSON.stringify(raw, (_key, v: unknown) => {
      if (typeof v === "number" && !Number.isFinite(v)) throw new ValueError();
      return v;
    });
  } catch {
    throw new ValueError();
  }
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

function convert(raw: unknown, type: FieldType): unknown {
  const text = textOf(raw);
  switch (type.kind) {
    case "int":
    case "float":
      if (typeof raw === "number") {
        // JSON's 1e400 arrives as Infinity: a float's inf, as pydantic takes it.
        if (type.kind === "int" ? !Number.isSafeInteger(raw) : Number.isNaN(raw)) throw new ValueError();
        return raw;
      }
      return refuseNegativeZero(parseNumber(unquote(text), type.kind === "int"), type.kind);
    case "bool": {
      if (typeof raw === "boolean") return raw;
      const word = unquote(text).toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      throw new ValueError();
    }
    case "str":
      if (typeof raw !== "string") throw new ValueError();
      // Kept as given, spaces included: only one pair of quotes around the whole value is taken off.
      return quotedText(raw) ?? raw;
    case "optional":
      // The bare word none (null, ~) is None; quoted ("none") it is the text, for the inner type to read.
      if (
        raw === null ||
        (typeof raw === "string" && quotedText(raw) === undefined && NULL_WORDS.has(raw.trim().toLowerCase()))
      )
        return null;
      return convert(raw, type.inner);
    case "list":
    case "tuple": {
      const items = Array.isArray(raw) ? raw : splitList(text);
      if (items.length > MAX_LIST_ITEMS)
        throw new RlError(
          "INVALID_VALUE",
          `A list may hold at most ${MAX_LIST_ITEMS} items; this one has ${items.length}.`,
        );
      if (type.kind === "tuple") {
        if (items.length !== type.items.length) throw new ValueError();
        return items.map((item, i) => convertPart(item, type.items[i]!, itemName(i)));
      }
      const converted = items.map((item, i) => convertPart(item, type.item, itemName(i)));
      return type.unique ? uniqueItems(converted) : converted;
    }
    case "enum": {
      const word = typeof raw === "string" ? unquote(raw) : raw;
      const hit = type.values.find((v) => v === word || String(v) === String(word));
      if (hit === undefined) throw new ValueError();
      return hit;
    }
    case "dict": {
      let parsed: unknown;
      if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) parsed = jsonValue(raw);
      else {
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new ValueError();
        }
      }
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new ValueError();
      return convertEntries(parsed as Record<string, unknown>, type);
    }
    case "any":
      if (typeof raw !== "string") return jsonValue(raw);
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return unquote(raw);
      }
  }
}

/** Keys stay JSON text (pydantic turns "1" into 1 for Dict[int, ...]); each key and value is checked against its type. */
function convertEntries(
  entries: Record<string, unknown>,
  type: Extract<FieldType, { kind: "dict" }>,
): Record<string, unknown> {
  if (!type.key || !type.value) return entries;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entries)) {
    convertPart(key, type.key, `key ${JSON.stringify(key)}`);
    out[key] = convertPart(value, type.value, `the value of ${JSON.stringify(key)}`);
  }
  return out;
}

/** Field(min_length=, max_length=): Python's len() of the value, in characters, items or entries. */
function checkLength(value: unknown, field: ConfigField): void {
  if (field.minLength === undefined && field.maxLength === undefined) return;
  const size =
    typeof value === "string"
      ? [...value].length
      : Array.isArray(value)
        ? value.length
        : value !== null && typeof value === "object"
          ? Object.keys(value).length
          : undefined;
  if (size === undefined) return;
  const unit = typeof value === "string" ? "characters" : Array.isArray(value) ? "items" : "entries";
  const range =
    field.minLength !== undefined && field.maxLength !== undefined
      ? `${field.minLength} to ${field.maxLength} ${unit}`
      : field.minLength !== undefined
        ? `at least ${field.minLength} ${unit}`
        : `at most ${field.maxLength} ${unit}`;
  if (
    (field.minLength !== undefined && size < field.minLength) ||
    (field.maxLength !== undefined && size > field.maxLength)
  ) {
    throw new RlError("INVALID_VALUE", `${field.name} must have ${range}; this value has ${size}.`, {
      details: { field: field.name, min_length: field.minLength, max_length: field.maxLength },
    });
  }
}

function checkBounds(value: unknown, field: ConfigField): void {
  if (typeof value !== "number") return;
  if (field.min !== undefined && (field.minExclusive ? value <= field.min : value < field.min)) {
    const bound = field.minExclusive ? `more than ${field.min}` : `at least ${field.min}`;
    throw new RlError("INVALID_VALUE", `${field.name} must be ${bound}; got ${formatValue(value)}.`, {
      details: { field: field.name },
    });
  }
  if (field.max !== undefined && (field.maxExclusive ? value >= field.max : value > field.max)) {
    const bound = field.maxExclusive ? `less than ${field.max}` : `at most ${field.max}`;
    throw new RlError("INVALID_VALUE", `${field.name} must be ${bound}; got ${formatValue(value)}.`, {
      details: { field: field.name },
    });
  }
}

/** Parse `raw` (typed text, or a JSON value from the LLM) as a value of `field`; throws INVALID_VALUE with the expected type. */
export function parseFieldValue(raw: unknown, field: ConfigField): unknown {
  if (raw === undefined)
    throw new RlError(
      "INVALID_VALUE",
      `No value given for ${field.name}. Example: /rl set ${field.name} ${exampleFor(field.fieldType)}`,
      { details: { field: field.name } },
    );
  const length = textOf(raw).length;
  if (length > MAX_VALUE_LENGTH) {
    throw new RlError(
      "INVALID_VALUE",
      `The value for ${field.name} is ${length} characters long; the limit is ${MAX_VALUE_LENGTH}.`,
      { details: { field: field.name, limit: MAX_VALUE_LENGTH } },
    );
  }
  let value: unknown;
  try {
    value = convert(raw, field.fieldType);
  } catch (err) {
    if (err instanceof RlError) throw err;
    const wrong =
      err instanceof ValueError && err.where && err.expected
        ? `${err.where}, ${quoteInput(textOf(err.got))}, is not ${describeType(err.expected)}`
        : `${quoteInput(textOf(raw))} is not one`;
    throw new RlError(
      "INVALID_VALUE",
      `${field.name} expects ${describeType(field.fieldType)} (${field.type}); ${wrong}. Example: /rl set ${field.name} ${exampleFor(field.fieldType)}`,
      {
        details: {
          field: field.name,
          expected: field.type,
          ...(err instanceof ValueError && err.where ? { item: err.where } : {}),
        },
      },
    );
  }
  if (depthOf(value, MAX_VALUE_DEPTH) > MAX_VALUE_DEPTH) {
    throw new RlError(
      "INVALID_VALUE",
      `The value for ${field.name} is nested more than ${MAX_VALUE_DEPTH} levels deep; give flatter data.`,
      { details: { field: field.name, limit: MAX_VALUE_DEPTH } },
    );
  }
  checkBounds(value, field);
  checkLength(value, field);
  return value;
}

function exampleFor(type: FieldType): string {
  switch (type.kind) {
    case "int":
      return "8";
    case "float":
      return "0.5";
    case "bool":
      return "true";
    case "str":
      return "my-value";
    case "optional":
      return exampleFor(type.inner);
    case "list":
      return `${exampleFor(type.item)},${exampleFor(type.item)}`;
    case "tuple":
      return type.items.map(exampleFor).join(",");
    case "enum":
      return String(type.values[0] ?? "");
    case "dict":
      return type.key && type.value
        ? `{"${exampleFor(type.key)}": ${JSON.stringify(exampleValue(type.value))}}`
        : '{"key": 1}';
    case "any":
      return "value";
  }
}

/** An example as JSON data, for inside a JSON object. */
function exampleValue(type: FieldType): unknown {
  const text = exampleFor(type);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

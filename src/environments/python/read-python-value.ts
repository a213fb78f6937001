// Reads a Python expression's value from its syntax tree when it is a literal (or constant arithmetic on literals).
import type { PyNode } from "./cursor-node.ts";
import type { PyValue } from "./python-file-summary.ts";

type Node = PyNode;

const UNKNOWN: PyValue = { kind: "unknown" };
const literal = (value: unknown): PyValue => ({ kind: "literal", value });

// Source text shown for a default runs to a few lines at most; a longer one is clipped, saying so.
const MAX_EXPR_LENGTH = 200;

/** The value of an expression node: a literal, a dotted name to resolve later, or the source text of the rest. */
export function readPythonValue(node: Node): PyValue {
  const value = readValue(node);
  return value.kind === "unknown" && node.type !== "ellipsis" ? exprOf(node) : value;
}

/** The source text of an expression, whitespace collapsed and clipped. */
export function exprOf(node: Node, suffix = ""): PyValue {
  const text = `${node.text.replace(/\s+/g, " ").trim()}${suffix}`;
  return { kind: "expr", text: text.length > MAX_EXPR_LENGTH ? `${text.slice(0, MAX_EXPR_LENGTH - 1)}…` : text };
}

function readValue(node: Node): PyValue {
  switch (node.type) {
    case "integer":
    case "float": {
      const value = readNumberText(node.type, node.text);
      return value === undefined ? UNKNOWN : literal(value);
    }
    case "string":
    case "concatenated_string": {
      const value = readStringLiteral(node);
      return value === undefined ? UNKNOWN : literal(value);
    }
    case "true":
      return literal(true);
    case "false":
      return literal(false);
    case "none":
      return literal(null);
    case "parenthesized_expression": {
      // Black wraps a long default with its trailing comment: `(\n True  # why\n)`.
      const inner = node.namedChildren.filter((child) => child.type !== "comment");
      return inner.length === 1 && inner[0] ? readValue(inner[0]) : UNKNOWN;
    }
    case "list":
    case "tuple":
    case "set":
      return readItems(node.namedChildren);
    case "dictionary":
      return readDictionary(node.namedChildren);
    case "unary_operator":
    case "binary_operator":
      return readArithmetic(node);
    case "identifier":
    case "attribute": {
      const path = readDottedName(node);
      return path ? { kind: "ref", path } : UNKNOWN;
    }
    default:
      return UNKNOWN;
  }
}

/** A plain number read from a node, for Field(ge=, le=, ...) bounds. */
export function readNumber(node: Node): number | undefined {
  const value = readValue(node);
  return value.kind === "literal" && typeof value.value === "number" ? value.value : undefined;
}

/** `a`, `a.b.c` as ["a", "b", "c"]; undefined for anything else (calls, subscripts). */
export function readDottedName(node: Node): string[] | undefined {
  if (node.type === "identifier") return [node.text];
  if (node.type !== "attribute") return undefined;
  const object = node.childForFieldName("object");
  const attribute = node.childForFieldName("attribute");
  const head = object ? readDottedName(object) : undefined;
  return head && attribute ? [...head, attribute.text] : undefined;
}

/** The text of a str literal (implicit concatenation included); undefined for bytes and f-strings with fields. */
export function readStringLiteral(node: Node): string | undefined {
  if (node.type === "concatenated_string") {
    const parts = node.namedChildren.map(readStringLiteral);
    return parts.every((part) => part !== undefined) ? parts.join("") : undefined;
  }
  if (node.type !== "string") return undefined;
  // A string is string_start, its content and string_end; a long prompt has many children, so only the ends are read.
  const start = node.firstChild;
  const end = node.lastChild;
  if (start?.type !== "string_start" || end?.type !== "string_end") return undefined;
  const opening = start.text;
  const prefix = opening.replace(/["']+$/, "").toLowerCase();
  if (prefix.includes("b")) return undefined;
  // Only an f-string has fields.
  if (prefix.includes("f") && node.descendantsOfType("interpolation").length > 0) return undefined;
  const whole = node.text;
  const body = whole.slice(opening.length, whole.length - (end.endIndex - end.startIndex));
  const text = prefix.includes("r") ? body : decodeEscapes(body);
  if (text === undefined || !prefix.includes("f")) return text;
  return text.replace(/\{\{/g, "{").replace(/\}\}/g, "}");
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "\n": "",
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

function decodeEscapes(body: string): string | undefined {
  if (!body.includes("\\")) return body;
  // \N{NAME} needs the Unicode name table; better to admit not knowing than to return the wrong text.
  if (/\\N\{/.test(body.replace(/\\\\/g, ""))) return undefined;
  return body.replace(
    /\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|\r?\n|[\s\S])/g,
    (whole, esc: string) => {
      const simple = SIMPLE_ESCAPES[esc.replace("\r", "")];
      if (simple !== undefined) return simple;
      const kind = esc[0] ?? "";
      if (kind === "x" || kind === "u" || kind === "U") return String.fromCodePoint(parseInt(esc.slice(1), 16));
      if (/^[0-7]+$/.test(esc)) return String.fromCodePoint(parseInt(esc, 8));
      return whole;
    },
  );
}

function readNumberText(type: string, text: string): number | undefined {
  const clean = text.replace(/_/g, "").toLowerCase();
  if (/j$/.test(clean)) return undefined;
  if (type === "float") {
    const value = Number(clean);
    return Number.isFinite(value) ? value : undefined;
  }
  const radix = /^0[xob]/.exec(clean) ? { x: 16, o: 8, b: 2 }[clean[1] as "x" | "o" | "b"] : 10;
  const digits = radix === 10 ? clean : clean.slice(2);
  const value = radix === 10 ? Number(digits) : parseInt(digits, radix);
  return Number.isFinite(value) ? value : undefined;
}

function readItems(nodes: readonly Node[]): PyValue {
  const values: unknown[] = [];
  for (const node of nodes) {
    if (node.type === "comment") continue;
    const value = readValue(node);
    if (value.kind !== "literal") return UNKNOWN;
    values.push(value.value);
  }
  return literal(values);
}

function readDictionary(nodes: readonly Node[]): PyValue {
  const result: Record<string, unknown> = {};
  for (const node of nodes) {
    if (node.type === "comment") continue;
    const keyNode = node.type === "pair" ? node.childForFieldName("key") : null;
    const valueNode = node.type === "pair" ? node.childForFieldName("value") : null;
    if (!keyNode || !valueNode) return UNKNOWN;
    const key = readValue(keyNode);
    const value = readValue(valueNode);
    if (key.kind !== "literal" || value.kind !== "literal") return UNKNOWN;
    if (typeof key.value !== "string" && typeof key.value !== "number") return UNKNOWN;
    result[String(key.value)] = value.value;
  }
  return literal(result);
}

// Configs write sizes as `1024 * 32`; folding numeric arithmetic runs no user code.
function readArithmetic(node: Node): PyValue {
  const operator = node.childForFieldName("operator")?.type;
  if (node.type === "unary_operator") {
    const argument = node.childForFieldName("argument");
    const value = argument ? readNumber(argument) : undefined;
    if (value === undefined) return UNKNOWN;
    return operator === "-" ? literal(-value) : operator === "+" ? literal(value) : UNKNOWN;
  }
  const leftNode = node.childForFieldName("left");
  const rightNode = node.childForFieldName("right");
  const left = leftNode ? readNumber(leftNode) : undefined;
  const right = rightNode ? readNumber(rightNode) : undefined;
  if (left === undefined || right === undefined) return UNKNOWN;
  const result = applyOperator(operator, left, right);
  return result === undefined || !Number.isFinite(result) ? UNKNOWN : literal(result);
}

function applyOperator(operator: string | undefined, left: number, right: number): number | undefined {
  switch (operator) {
    case "+":
      return left + right;
    case "-":
      return left - right;
    case "*":
      return left * right;
    case "/":
      return right === 0 ? undefined : left / right;
    case "//":
      return right === 0 ? undefined : Math.floor(left / right);
    case "%":
      return right === 0 ? undefined : left - right * Math.floor(left / right);
    case "**":
      return left ** right;
    default:
      return undefined;
  }
}

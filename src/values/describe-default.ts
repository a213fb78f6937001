// How a default reads in replies, also one only the environment's code computes: never "none" when it is not None.
import { formatValue } from "./format-value.ts";

const KEY = String.raw`(?:"[^"\\]*"|'[^'\\]*')`;
const LITERAL = String.raw`-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|"[^"\\]*"|'[^'\\]*'|True|False|None`;
/** `env.get("group_size", 16)`, `int(os.environ.get("N", 3))`: a lookup whose fallback is written in the source. */
const LOOKUP = String.raw`[A-Za-z_][\w.]*\.get\(\s*${KEY}\s*,\s*(${LITERAL})\s*\)`;
const BARE = new RegExp("^" + LOOKUP + "$");
const CAST = new RegExp(String.raw`^(int|float|str|bool)\(\s*` + LOOKUP + String.raw`\s*\)` + "$");

function pythonLiteral(text: string, cast: string | undefined): unknown {
  if (text === "True" || text === "False") return text === "True";
  if (text === "None") return null;
  const quoted = text.startsWith('"') || text.startsWith("'");
  const value = quoted ? text.slice(1, -1) : Number(text);
  if (cast === "int" || cast === "float") return typeof value === "number" ? value : undefined;
  return cast === "str" ? String(value) : value;
}

/** The literal a computed default falls back to when its source is a lookup with one, e.g. 16 for `env.get("group_size", 16)`. */
export function literalFallback(expr: string): { value: unknown } | undefined {
  const text = expr.trim();
  const bare = BARE.exec(text);
  const cast = bare ? undefined : CAST.exec(text);
  const literal = bare?.[1] ?? cast?.[2];
  if (literal === undefined) return undefined;
  const value = pythonLiteral(literal, cast?.[1]);
  return value === undefined ? undefined : { value };
}

/**
 * A default as a reply says it: the value, or for one the environment computes when it starts, its fallback when the
 * source names one ("16, or what `env.get(...)` finds when the environment starts"), else its source.
 */
export function describeDefault(value: unknown, expr: string | undefined): string {
  if (expr === undefined) return formatValue(value);
  const fallback = literalFallback(expr);
  return fallback
    ? `${formatValue(fallback.value)}, or what \`${expr}\` finds when the environment starts`
    : `set when the environment starts: \`${expr}\``;
}

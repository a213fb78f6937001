// Reads "field=v1,v2 field2=a,b [--max N]" into a sweep's grid of raw values, commas inside [...] or {...} kept.
import { RlError } from "../src/errors.ts";
import { quoteInput } from "../src/values/quote-input.ts";
import { parseAssignments } from "./parse-assignments.ts";

export interface RawGrid {
  axes: Array<{ field: string; values: string[] }>;
  /** A --max N written among the grid's words (the rest of the line is the grid's). */
  max?: number;
}

const MAX_FLAG = /(^|\s)--max(?:=|\s+)(\S+)(?=\s|$)/;

/** Splits a value list on commas that are not inside brackets, so a list value can be given as a JSON array. */
function splitValues(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "[" || ch === "{") depth++;
    if (ch === "]" || ch === "}") depth = Math.max(0, depth - 1);
    if (ch === "," && depth === 0) {
      out.push(current.trim());
      current = "";
    } else current += ch;
  }
  out.push(current.trim());
  return out;
}

export function parseSweepGrid(text: string, usage: string): RawGrid {
  let rest = text;
  let max: number | undefined;
  const flag = MAX_FLAG.exec(rest);
  if (flag) {
    if (!/^\d+$/.test(flag[2]!))
      throw new RlError("USAGE", `--max expects a whole number, not ${quoteInput(flag[2]!)}.\nUsage: ${usage}`);
    max = Number(flag[2]);
    rest = rest.slice(0, flag.index) + rest.slice(flag.index + flag[0].length);
  }
  const assignments = parseAssignments(rest, usage);
  if (assignments.length === 0)
    throw new RlError("USAGE", `Give at least one field with its values, e.g. temperature=0.3,0.7.\nUsage: ${usage}`);
  const axes = assignments.map(({ field, value }) => {
    const values = splitValues(value);
    if (values.some((v) => v === ""))
      throw new RlError(
        "USAGE",
        `${quoteInput(field)} has an empty value in ${quoteInput(value)}; separate values with single commas.\nUsage: ${usage}`,
      );
    if (new Set(values).size !== values.length)
      throw new RlError(
        "USAGE",
        `${quoteInput(field)} lists a value twice in ${quoteInput(value)}; give each value once.\nUsage: ${usage}`,
      );
    return { field, values };
  });
  return { axes, ...(max !== undefined ? { max } : {}) };
}

// Bounds on arguments given as JSON (the LLM's tool calls, Discord options): size, nesting and list length, each refused plainly.
import { RlError } from "../errors.ts";
import { MAX_ARGS_CHARS } from "./input-limits.ts";
import { MAX_LIST_ITEMS } from "./parse-field-value.ts";

/** The same budget as a typed command line: JSON arguments may not say more than a person could type. */
export { MAX_ARGS_CHARS };
export const MAX_ARGS_DEPTH = 8;
export const MAX_ARGS_KEYS = 64;
export const MAX_ARGS_ITEMS = MAX_LIST_ITEMS;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Throws USAGE unless `args` is a plain object of JSON values within the limits; returns it typed. */
export function checkInputSize(args: unknown): Record<string, unknown> {
  if (!isPlainObject(args))
    throw new RlError(
      "USAGE",
      'The arguments must be an object of named values, e.g. {"field": "group_size", "value": "8"}.',
    );
  // Counted whole, so the refusal says how long they are.
  let chars = 0;
  const count = (n: number) => void (chars += n);
  const walk = (value: unknown, depth: number): void => {
    if (depth > MAX_ARGS_DEPTH)
      throw new RlError("USAGE", `The arguments are nested more than ${MAX_ARGS_DEPTH} levels deep.`, {
        details: { limit: MAX_ARGS_DEPTH },
      });
    if (typeof value === "string") return count(value.length);
    if (value === null || typeof value === "boolean") return count(1);
    if (typeof value === "number") {
      if (!Number.isFinite(value)) throw new RlError("USAGE", "The arguments hold a number that is not finite.");
      return count(String(value).length);
    }
    if (Array.isArray(value)) {
      if (value.length > MAX_ARGS_ITEMS)
        throw new RlError(
          "USAGE",
          `A list in the arguments has ${value.length} items; the limit is ${MAX_ARGS_ITEMS}.`,
          { details: { limit: MAX_ARGS_ITEMS } },
        );
      for (const item of value) walk(item, depth + 1);
      return;
    }
    if (isPlainObject(value)) {
      const keys = Object.keys(value);
      if (keys.length > MAX_ARGS_KEYS)
        throw new RlError(
          "USAGE",
          `An object in the arguments has ${keys.length} keys; the limit is ${MAX_ARGS_KEYS}.`,
          { details: { limit: MAX_ARGS_KEYS } },
        );
      for (const key of keys) {
        count(key.length);
        walk(value[key], depth + 1);
      }
      return;
    }
    // undefined, functions, bigints, class instances: nothing a JSON document or a chat option can carry.
    if (value === undefined) return;
    throw new RlError("USAGE", `The arguments hold a ${typeof value} value, which is not JSON.`);
  };
  walk(args, 0);
  if (chars > MAX_ARGS_CHARS)
    throw new RlError(
      "USAGE",
      `The arguments are ${chars.toLocaleString("en")} characters long in all; the limit is ${MAX_ARGS_CHARS.toLocaleString("en")}. Shorten them.`,
      { details: { length: chars, limit: MAX_ARGS_CHARS } },
    );
  return args;
}

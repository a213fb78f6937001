// A manifest's strings with their placeholders filled in: plain text substitution into one argv element (or one
// path, one environment value), never a shell.
import { RlError } from "../../errors.ts";

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** The placeholder names a string uses, in order. */
export function placeholdersIn(text: string | undefined): string[] {
  return text === undefined ? [] : [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** The string with each placeholder replaced by its value; one without a value here is an error naming it. */
export function expandTemplate(text: string, values: Readonly<Record<string, string | undefined>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new RlError("CONFIG", `The stack manifest's "${text}" uses {${name}}, which has no value here.`);
    return value;
  });
}

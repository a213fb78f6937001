// A command with its arguments as text a person could type: what a Confirm button shows and the prompt's record keeps.
import { RlError } from "../../src/errors.ts";
import { NULL_WORDS } from "../../src/values/parse-field-value.ts";
import type { AnyCommand } from "../types.ts";

/** One word of a button's command text, quoted so that parseCommandText reads back exactly this value, never more words or flags. */
function quoteWord(value: string): string {
  // Quoted, none is the text "none" to the parser: the word meaning None stays bare (it is one plain word).
  if (NULL_WORDS.has(value.toLowerCase())) return value;
  if (!value.includes('"')) return `"${value}"`;
  if (!value.includes("'")) return `'${value}'`;
  throw new RlError("USAGE", "A value holding both \" and ' cannot go on a button; type the command instead.");
}

/** The command with its arguments, each its own quoted word: what a person could type to run it again. */
export function commandText(command: AnyCommand, args: Record<string, unknown>): string {
  const positional = command.positional ?? [];
  const words: string[] = [];
  for (const name of positional) if (args[name] !== undefined) words.push(quoteWord(String(args[name])));
  const flags: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (positional.includes(name) || value === undefined) continue;
    if (value === true) flags.push(`--${name}`);
    else if (Array.isArray(value)) {
      const items = value.map(String);
      if (items.some((item) => item.includes(",")))
        throw new RlError(
          "USAGE",
          `--${name} has an item with a comma, which cannot go on a button; type the command instead.`,
        );
      flags.push(`--${name}`, quoteWord(items.join(",")));
    } else flags.push(`--${name}`, quoteWord(String(value)));
  }
  // The last positional of a rest-of-line command takes everything after it, so flags go first there.
  return ["/rl " + command.name, ...(command.restOfLine ? [...flags, ...words] : [...words, ...flags])].join(" ");
}

/** The command as a person reads it: commandText when it can be written that way, else the arguments as JSON. */
export function readableText(command: AnyCommand, args: Record<string, unknown>): string {
  try {
    return commandText(command, args);
  } catch {
    return `/rl ${command.name} ${JSON.stringify(args)}`;
  }
}

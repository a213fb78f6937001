// Turns "/rl set group_size 8" style text into a command and raw arguments, or a usage error.
import { RlError } from "../src/errors.ts";
import { nearestName } from "../src/environments/resolution/nearest-name.ts";
import { commandTooLong, MAX_COMMAND_LENGTH } from "../src/values/input-limits.ts";
import { NULL_WORDS } from "../src/values/parse-field-value.ts";
import { argSpecs, usageOf, type ArgSpec } from "./arg-specs.ts";
import type { AnyCommand } from "./types.ts";

export { MAX_COMMAND_LENGTH } from "../src/values/input-limits.ts";

interface Token {
  value: string;
  start: number;
  quoted: boolean;
  /** The whole word is one quoted section ("a b" or 'x'), not a word with quotes inside ({"k":1}). */
  wholeQuoted: boolean;
}

/** Split on whitespace, honouring "double" and 'single' quotes; keeps each token's offset in the text. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  // Where each closing quote last occurs: an unmatched quote is then found without scanning the rest again (no quadratic time).
  const lastClose = new Map<string, number>();
  const closeAfter = (close: string, from: number): number => {
    if (!lastClose.has(close)) lastClose.set(close, text.lastIndexOf(close));
    return lastClose.get(close)! >= from ? text.indexOf(close, from) : -1;
  };
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    const start = i;
    let value = "";
    let quoted = false;
    let sections = 0;
    let plain = false;
    while (i < text.length && !/\s/.test(text[i]!)) {
      const ch = text[i]!;
      if (ch === '"' || ch === "'" || ch === "“" || ch === "”" || ch === "‘" || ch === "’") {
        const close = ch === "“" ? "”" : ch === "‘" ? "’" : ch;
        const end = closeAfter(close, i + 1);
        if (end < 0 && i > start) {
          // An apostrophe inside a word (don't) is a letter, not a quote.
          value += ch;
          plain = true;
          i++;
          continue;
        }
        if (end < 0) throw new RlError("USAGE", `Unclosed quote ${ch} in the command. Close it, or remove it.`);
        value += text.slice(i + 1, end);
        quoted = true;
        sections++;
        i = end + 1;
      } else {
        value += ch;
        plain = true;
        i++;
      }
    }
    tokens.push({ value, start, quoted, wholeQuoted: sections === 1 && !plain });
  }
  return tokens;
}

export interface ParsedCommand {
  command: AnyCommand;
  /** Raw values: strings from words, true for bare boolean flags; zod and typed parsing come after. */
  args: Record<string, unknown>;
}

function usageError(command: AnyCommand, problem: string): RlError {
  return new RlError("USAGE", `${problem}\nUsage: ${usageOf(command)}`, {
    details: { usage: usageOf(command), command: command.name },
  });
}

function convertWord(spec: ArgSpec, word: string, command: AnyCommand): unknown {
  switch (spec.type) {
    case "integer":
      if (!/^[+-]?\d+$/.test(word)) throw usageError(command, `--${spec.name} expects a whole number, not "${word}".`);
      return Number(word);
    case "number":
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(word))
        throw usageError(command, `--${spec.name} expects a number, not "${word}".`);
      return Number(word);
    case "boolean": {
      const w = word.toLowerCase();
      if (["true", "yes", "on", "1"].includes(w)) return true;
      if (["false", "no", "off", "0"].includes(w)) return false;
      throw usageError(command, `--${spec.name} expects true or false, not "${word}".`);
    }
    case "array":
      return word
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    case "string":
      return word;
  }
}

/** Parse text after (or including) "/rl" against the registry. Empty text means "help". */
export function parseCommandText(text: string, commands: readonly AnyCommand[]): ParsedCommand {
  const tooLong = commandTooLong(text);
  if (tooLong) throw new RlError("USAGE", tooLong, { details: { length: text.length, limit: MAX_COMMAND_LENGTH } });
  const body = text.trim().replace(/^\/?rl(\s+|$)/i, "");
  const tokens = tokenize(body);
  const name = (tokens[0]?.value ?? "help").toLowerCase();
  const command = commands.find((c) => c.name === name);
  if (!command) {
    const near = nearestName(
      name,
      commands.map((c) => c.name),
    );
    throw new RlError(
      "USAGE",
      `Unknown command "${name}".${near ? ` Did you mean /rl ${near}?` : ""} Try /rl help for the list.`,
      {
        details: { suggestion: near },
      },
    );
  }
  const specs = argSpecs(command);
  const positional = specs.filter((s) => s.positional);
  const args: Record<string, unknown> = {};
  let p = 0;
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i]!;
    const flag = !token.quoted && token.value.startsWith("--") ? token.value.slice(2) : undefined;
    if (flag !== undefined && flag.length > 0) {
      const [flagName, inline] = flag.includes("=")
        ? [flag.slice(0, flag.indexOf("=")), flag.slice(flag.indexOf("=") + 1)]
        : [flag, undefined];
      const key = flagName.replace(/-/g, "_");
      const spec = specs.find((s) => s.name === key);
      if (!spec) throw usageError(command, `Unknown option --${flagName} for /rl ${command.name}.`);
      if (inline !== undefined) args[spec.name] = convertWord(spec, inline, command);
      else if (spec.type === "boolean") args[spec.name] = true;
      else {
        const next = tokens[++i];
        if (!next) throw usageError(command, `--${flagName} needs a value.`);
        args[spec.name] = convertWord(spec, next.value, command);
      }
      continue;
    }
    const spec = positional[p++];
    if (!spec) throw usageError(command, `Too many words: "${token.value}" is not expected here.`);
    if (command.restOfLine && spec === positional.at(-1)) {
      // Keep the rest verbatim (JSON, spaces), unless it is one wholly quoted word: {"k":1} keeps its quotes.
      // A quoted "none" keeps them too: it is the text, where the bare word means None.
      const rest = tokens.slice(i);
      const unquoted = rest.length === 1 && rest[0]!.wholeQuoted && !NULL_WORDS.has(rest[0]!.value.toLowerCase());
      args[spec.name] = unquoted ? rest[0]!.value : body.slice(token.start).trim();
      break;
    }
    args[spec.name] = convertWord(spec, token.value, command);
  }
  const missing = specs.filter((s) => s.required && args[s.name] === undefined);
  if (missing.length > 0) throw usageError(command, `Missing ${missing.map((s) => `<${s.name}>`).join(" ")}.`);
  return { command, args };
}

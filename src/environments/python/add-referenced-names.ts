// The names a parsed file could use to reach another file of the folder (module paths, imported names, dotted bases
// and values), for deciding which unparsed files are needed after all. Every identifier in every string of the
// summary counts, whatever its shape, except in what can never name a file: prose (docstrings, descriptions) and
// literal values (a string in quotes is never resolved to a module).
import type { FileSummary } from "./python-file-summary.ts";

const IDENTIFIER = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/gu;
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PROSE = new Set(["docstring", "description"]);

export function addReferencedNames(summary: FileSummary, names: Set<string>): void {
  const visit = (value: unknown): void => {
    if (typeof value === "string") {
      if (PLAIN_NAME.test(value)) names.add(value);
      else for (const match of value.matchAll(IDENTIFIER)) names.add(match[0]);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value !== null && typeof value === "object") {
      if ((value as { kind?: unknown }).kind === "literal") return;
      for (const [key, item] of Object.entries(value)) if (!PROSE.has(key)) visit(item);
    }
  };
  visit(summary);
}

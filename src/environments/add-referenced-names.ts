// The names a parsed file could use to reach another file of the folder (module paths, imported names, dotted bases
// and values), for deciding which files without a class are needed after all. Every identifier in every string of
// the summary counts: more than the imports, so a file another one reaches is never left out, whatever the summary's
// shape.
import type { FileSummary } from "./python-file-summary.ts";

const IDENTIFIER = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/gu;

export function addReferencedNames(summary: FileSummary, names: Set<string>): void {
  const visit = (value: unknown): void => {
    if (typeof value === "string") {
      for (const match of value.matchAll(IDENTIFIER)) names.add(match[0]);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value !== null && typeof value === "object") {
      for (const item of Object.values(value)) visit(item);
    }
  };
  visit(summary);
}

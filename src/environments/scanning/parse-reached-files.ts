// A scan's second pass: an unparsed file is parsed once a parsed file reaches it, by its module name or one of its
// class names (the names a parsed file uses), or once it mentions a name a parsed file binds (a base it may derive
// from); then again with what that file adds, until nothing more is reached.
import { addDefinedNames } from "../python/add-defined-names.ts";
import { addReferencedNames } from "../python/add-referenced-names.ts";
import type { FileSummary } from "../python/python-file-summary.ts";
import { moduleNameOf, type PythonFileEntry } from "./list-python-files.ts";
import { batchParses, readEntry, type ReadFile, type ScanFiles } from "./scan-files.ts";
import type { CachedOutcome } from "./summary-cache.ts";

/** Parses the files the parsed ones reach, replacing their outcomes in `outcomes` (by index, as `files`). */
export async function parseReachedFiles(
  scan: ScanFiles,
  files: readonly PythonFileEntry[],
  outcomes: CachedOutcome[],
  kept: ReadonlyMap<number, ReadFile>,
): Promise<void> {
  if (!outcomes.some((outcome) => outcome.kind === "unreached")) return;
  const folderParts = new Set(files.flatMap((entry) => entry.key.replace(/\.py$/, "").split("/")));
  const isFolderModule = (part: string) => folderParts.has(part);
  const used = new Set<string>();
  const bound = new Set<string>(["BaseEnv"]);
  const parsed: FileSummary[] = [];
  const learn = (outcome: CachedOutcome): void => {
    if (outcome.kind !== "summary") return;
    let names = scan.referencedBy.get(outcome);
    if (!names) {
      names = new Set();
      addReferencedNames(outcome.summary, names);
      scan.referencedBy.set(outcome, names);
    }
    for (const name of names) used.add(name);
    parsed.push(outcome.summary);
  };
  outcomes.forEach(learn);
  for (;;) {
    // A name imported under another name counts once what it names does, whichever file comes first.
    while (parsed.reduce((grew, summary) => addDefinedNames(summary, isFolderModule, bound) || grew, false));
    const reached = files.flatMap((entry, index) => {
      const outcome = outcomes[index];
      if (outcome?.kind !== "unreached") return [];
      const isReached =
        used.has(moduleNameOf(entry)) ||
        outcome.classNames.some((name) => used.has(name)) ||
        outcome.identifiers.some((name) => bound.has(name));
      return isReached ? [index] : [];
    });
    if (reached.length === 0) return;
    const parses = batchParses(scan);
    for (const index of reached) {
      const entry = files[index]!;
      const found = (outcome: CachedOutcome): void => {
        outcomes[index] = outcome;
        learn(outcome);
      };
      // Read again when the first pass found it in the cache.
      const got = kept.get(index) ?? (await readEntry(scan, entry));
      if ("outcome" in got) found(got.outcome);
      else
        await parses.add(got.bytes, (outcome) => {
          scan.cache.store(entry.filePath, got.stamp, outcome);
          found(outcome);
        });
    }
    await parses.flush();
  }
}

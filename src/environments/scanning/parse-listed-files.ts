// A scan's first pass: each listed file's cached outcome, or the file read and, if it may hold an environment of its
// own, parsed; largest first, the parses in batches shared with the helper threads, giving the event loop turns.
import { skimPythonFile } from "../python/skim-python-file.ts";
import { moduleNameOf, type PythonFileEntry } from "./list-python-files.ts";
import { batchParses, readEntry, tooLarge, type ReadFile, type ScanFiles } from "./scan-files.ts";
import type { CachedOutcome } from "./summary-cache.ts";

/** What the first pass leaves: each file's outcome by its index, and the bytes of those it read but left unparsed. */
export interface ListedOutcomes {
  outcomes: CachedOutcome[];
  kept: Map<number, ReadFile>;
}

/** A package's __init__ is reached by relative imports that name no file (`from . import x`): always parsed. */
const isPackageInit = (entry: PythonFileEntry): boolean => moduleNameOf(entry) === "__init__";

/** How much the scan may have to parse: what the pool is told, to decide whether helper threads are worth it. */
export function bytesToParse(scan: ScanFiles, files: readonly PythonFileEntry[]): number {
  return files.reduce(
    (sum, entry) =>
      entry.size <= scan.maxFileBytes && !scan.cache.byStamp(entry.filePath, entry.mtimeMs, entry.size)
        ? sum + entry.size
        : sum,
    0,
  );
}

/** What the first pass counts: files analysed from scratch, and files whose earlier analysis it reused. */
export interface FileCounts {
  parsed: number;
  cached: number;
}

/** The first pass over `files`, counting into `stats` as it goes (a scan's stats can be read while it runs). */
export async function parseListedFiles(
  scan: ScanFiles,
  files: readonly PythonFileEntry[],
  stats: FileCounts,
): Promise<ListedOutcomes> {
  const outcomes = new Array<CachedOutcome>(files.length);
  const kept = new Map<number, ReadFile>();
  const parses = batchParses(scan);
  // Largest first, so the threads finish together instead of one parsing the biggest file at the end.
  const order = files.map((_, index) => index).sort((a, b) => files[b]!.size - files[a]!.size);
  for (const index of order) {
    const entry = files[index]!;
    if (entry.size > scan.maxFileBytes) outcomes[index] = tooLarge(scan, entry.size);
    else
      await loadFile(
        scan,
        entry,
        stats,
        parses,
        (outcome) => (outcomes[index] = outcome),
        (got) => kept.set(index, got),
      );
    await scan.maybeYield();
  }
  await parses.flush();
  return { outcomes, kept };
}

/**
 * One file of the first pass: its outcome goes to `found`, at once or once its batch is parsed; `keep` receives its
 * bytes when it is left unparsed, for the second pass.
 */
async function loadFile(
  scan: ScanFiles,
  entry: PythonFileEntry,
  stats: FileCounts,
  parses: ReturnType<typeof batchParses>,
  found: (outcome: CachedOutcome) => void,
  keep: (read: ReadFile) => void,
): Promise<void> {
  const known = scan.cache.byStamp(entry.filePath, entry.mtimeMs, entry.size);
  if (known) {
    stats.cached += 1;
    return found(known);
  }
  const got = await readEntry(scan, entry);
  if ("outcome" in got) return found(got.outcome);
  const sameContent = scan.cache.byContent(entry.filePath, got.stamp);
  if (sameContent) {
    stats.cached += 1;
    if (sameContent.kind === "unreached") keep(got);
    return found(sameContent);
  }
  stats.parsed += 1;
  const skimmed = isPackageInit(entry) ? "parse" : skimPythonFile(got.bytes);
  const store = (outcome: CachedOutcome): void => {
    scan.cache.store(entry.filePath, got.stamp, outcome);
    found(outcome);
  };
  if (skimmed === "parse") return parses.add(got.bytes, store);
  keep(got);
  store(skimmed);
}

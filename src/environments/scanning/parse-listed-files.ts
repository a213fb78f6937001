// A scan's first pass: each listed file's cached outcome, or the file read and, if it may hold an environment of its
// own, parsed; largest first, a few at a time, giving the event loop a turn between files.
import { forEachLimited } from "../for-each-limited.ts";
import { skimPythonFile } from "../python/skim-python-file.ts";
import { moduleNameOf, type PythonFileEntry } from "./list-python-files.ts";
import { parseNext, readEntry, tooLarge, type ReadFile, type ScanFiles } from "./scan-files.ts";
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
  // Largest first, so the threads finish together instead of one parsing the biggest file at the end.
  const order = files.map((_, index) => index).sort((a, b) => files[b]!.size - files[a]!.size);
  await forEachLimited(order, scan.concurrency, async (index) => {
    const entry = files[index]!;
    outcomes[index] =
      entry.size > scan.maxFileBytes
        ? tooLarge(scan, entry.size)
        : await loadFile(scan, entry, stats, (got) => kept.set(index, got));
    // Parsing is synchronous: give chat acks and timers a turn whenever a slice is used up.
    await scan.maybeYield();
  });
  return { outcomes, kept };
}

/** One file of the first pass; `keep` receives its bytes when it is left unparsed, for the second pass. */
async function loadFile(
  scan: ScanFiles,
  entry: PythonFileEntry,
  stats: FileCounts,
  keep: (read: ReadFile) => void,
): Promise<CachedOutcome> {
  const known = scan.cache.byStamp(entry.filePath, entry.mtimeMs, entry.size);
  if (known) {
    stats.cached += 1;
    return known;
  }
  const got = await readEntry(scan, entry);
  if ("outcome" in got) return got.outcome;
  const sameContent = scan.cache.byContent(entry.filePath, got.stamp);
  if (sameContent) {
    stats.cached += 1;
    if (sameContent.kind === "unreached") keep(got);
    return sameContent;
  }
  stats.parsed += 1;
  const skimmed = isPackageInit(entry) ? "parse" : skimPythonFile(got.bytes);
  const outcome = skimmed === "parse" ? await parseNext(scan, got.bytes) : skimmed;
  if (outcome.kind === "unreached") keep(got);
  scan.cache.store(entry.filePath, got.stamp, outcome);
  return outcome;
}

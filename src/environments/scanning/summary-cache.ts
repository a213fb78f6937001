// Remembers each file's summary so a rescan skips unchanged files: by mtime+size without reading, else by content
// (its SHA-1) without parsing.
import path from "node:path";
import type { FileOutcome } from "../python/python-file-summary.ts";
import type { Skimmed } from "../python/skim-python-file.ts";

/** A file's analysis as cached: its outcome, or what skimming it found while no parsed file reached it. */
export type CachedOutcome = FileOutcome | Skimmed;

export interface FileStamp {
  mtimeMs: number;
  size: number;
  /** What the content is known by: its SHA-1 ("sha1:..."), or for a scanner that scans once its path ("path:..."). */
  content: string;
}

export interface SummaryCache {
  /** The outcome for a file whose mtime and size are unchanged since it was last read. */
  byStamp(filePath: string, mtimeMs: number, size: number): CachedOutcome | undefined;
  /** The outcome for content already seen (here or under another path); records the file's new stamp. */
  byContent(filePath: string, stamp: FileStamp): CachedOutcome | undefined;
  store(filePath: string, stamp: FileStamp, outcome: CachedOutcome): void;
  /** Forget files under `dir` that were not seen in its latest scan, and summaries no file uses. */
  prune(dir: string, seen: ReadonlySet<string>): void;
}

export function createSummaryCache(): SummaryCache {
  const stamps = new Map<string, FileStamp>();
  // Keyed by content alone: summaries hold nothing path-specific, so copies of a file share one.
  const outcomes = new Map<string, CachedOutcome>();

  return {
    byStamp(filePath, mtimeMs, size) {
      const stamp = stamps.get(filePath);
      if (!stamp || stamp.mtimeMs !== mtimeMs || stamp.size !== size) return undefined;
      return outcomes.get(stamp.content);
    },
    byContent(filePath, stamp) {
      const outcome = outcomes.get(stamp.content);
      if (outcome) stamps.set(filePath, stamp);
      return outcome;
    },
    store(filePath, stamp, outcome) {
      stamps.set(filePath, stamp);
      outcomes.set(stamp.content, outcome);
    },
    prune(dir, seen) {
      const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
      for (const filePath of stamps.keys()) {
        if (filePath.startsWith(prefix) && !seen.has(filePath)) stamps.delete(filePath);
      }
      const used = new Set([...stamps.values()].map((stamp) => stamp.content));
      for (const content of outcomes.keys()) if (!used.has(content)) outcomes.delete(content);
    },
  };
}

// Discovers Atropos environments in a folder without running them: list, read and parse (cached; a file that cannot
// hold an environment only when a parsed file reaches it; on several threads when allowed), then resolve. Runs in
// whatever thread calls it: the bot runs it in a process of its own
// (discovery-process/process-scanner.ts), `rl-chatops scan` in its main thread.
import { readFileSync } from "node:fs";
import path from "node:path";
import { asRlError } from "../errors.ts";
import type { AtroposlibLookup } from "./resolution/find-atroposlib.ts";
import type { ResolutionMemo } from "./resolution/resolution-memo.ts";
import { listPythonFiles, type PythonFileEntry } from "./scanning/list-python-files.ts";
import { openScanRoot } from "./scanning/open-scan-root.ts";
import { createOutsideConfigClasses } from "./scanning/outside-config-classes.ts";
import { bytesToParse, parseListedFiles } from "./scanning/parse-listed-files.ts";
import { parseReachedFiles } from "./scanning/parse-reached-files.ts";
import { resolveScan } from "./scanning/resolve-scan.ts";
import type { ScanFiles } from "./scanning/scan-files.ts";
import { createSummaryCache, type CachedOutcome } from "./scanning/summary-cache.ts";
import { createTimeSlicer } from "./scanning/time-slicer.ts";
import { createParsePool, type ParsePool } from "./threads/parse-pool.ts";
import type { ScanResult, ScanWarning } from "./types.ts";

export interface EnvironmentScannerOptions {
  /** The "env" section of the locked fields file: these fields are marked locked with these values. */
  lockedEnv: Record<string, unknown>;
  /** Scan subfolders too (default false, like the seed). */
  recursive?: boolean;
  /** Larger files are refused by their size, unread (default 1,000,000 bytes). */
  maxFileBytes?: number;
  /** Reads a file's bytes; replaceable so tests can see which files were read or make a read fail. */
  readFile?: (filePath: string) => Promise<Uint8Array>;
  /** The longest stretch of synchronous work, in ms, before the event loop gets a turn (default 8). */
  sliceMs?: number;
  /**
   * Threads that may parse, this one included (default 1). The others are started for a scan with enough to parse
   * to be worth them, and stopped when it ends.
   */
  parseThreads?: number;
  /** The threads to parse on, when the caller started them itself (`parseThreads` of them); by default the scanner's own. */
  parsePool?: ParsePool;
  /** Where atroposlib is (or the Python to ask): BaseEnvConfig's fields are read from its source, not the bundled table. */
  atroposlib?: AtroposlibLookup;
  /** tinker-atropos's tinker_atropos/config.py, when the training root may have it: TinkerConfig's fields are read from it. */
  trainerConfigFile?: string;
  /**
   * The scanner scans one folder once (`rl-chatops scan`): files are known by their paths instead of by a hash of
   * their content, which only a rescan uses (a copied or touched file found again), so no file is hashed and Node's
   * crypto is never loaded.
   */
  scansOnce?: boolean;
}

export interface ScanStats {
  /** Files read and analysed from scratch by the latest scan (skimmed or parsed). */
  parsed: number;
  /** Files whose earlier analysis the latest scan reused (unchanged stamp, or same content). */
  cached: number;
  /** Files left unparsed: no environment of their own, and no parsed file reaches them. */
  unreached: number;
}

export interface EnvironmentScanner {
  scan(dir: string): Promise<ScanResult>;
  stats(): ScanStats;
  /** Stops the helper threads a scan in progress uses, for good (scans still work afterwards, in this thread). */
  close(): Promise<void>;
}

const DEFAULT_MAX_FILE_BYTES = 1_000_000;
/** The longest stretch of synchronous work before the scan gives chat acks and timers a turn. */
const SLICE_MS = 8;

/** The last resolution and the file outcomes it came from: unchanged files give back the same outcome objects. */
interface LastResolution {
  root: string;
  outcomes: CachedOutcome[];
  result: ScanResult;
  /** What each file's resolution found, for the next rescan to keep where nothing it looked at changed. */
  memo: ResolutionMemo;
  base?: unknown;
  trainer?: unknown;
}

export function createEnvironmentScanner(options: EnvironmentScannerOptions): EnvironmentScanner {
  const threads = Math.max(1, options.parseThreads ?? 1);
  const pool = options.parsePool ?? createParsePool(threads);
  // Synchronous reads cost this thread far less than the promise API's four round trips a file, and this thread is
  // discovery's own (a worker in the bot, the command's main thread in `rl-chatops scan`).
  const read = options.readFile ?? (async (filePath: string) => readFileSync(filePath));
  const scanFiles: ScanFiles = {
    cache: createSummaryCache(),
    pool,
    read,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    maybeYield: createTimeSlicer(options.sliceMs ?? SLICE_MS),
    referencedBy: new WeakMap(),
    scansOnce: options.scansOnce ?? false,
  };
  const outsideClasses = createOutsideConfigClasses(options, pool, read);
  let lastStats: ScanStats = { parsed: 0, cached: 0, unreached: 0 };
  let lastResolved: LastResolution | undefined;
  // Scans share the cache and the parser; one at a time keeps the counts and the cache consistent.
  let queue: Promise<unknown> = Promise.resolve();

  function isLastScan(
    root: string,
    outcomes: readonly CachedOutcome[],
    listingWarnings: readonly ScanWarning[],
  ): boolean {
    return (
      lastResolved?.root === root &&
      lastResolved.outcomes.length === outcomes.length &&
      lastResolved.outcomes.every((outcome, i) => outcome === outcomes[i]) &&
      listingWarnings.length === 0
    );
  }

  /**
   * Both parse passes over the listed files, on the pool's helper threads for this scan only. The helpers are told to
   * stop as the passes end; `stopped` settles once they have gone, which takes a thread some milliseconds: the scan
   * resolves meanwhile and waits for it at its end.
   */
  async function parseFiles(
    root: string,
    files: readonly PythonFileEntry[],
    listingWarnings: readonly ScanWarning[],
    stats: ScanStats,
  ): Promise<{ outcomes: CachedOutcome[]; stopped: Promise<void> }> {
    pool.prepare(bytesToParse(scanFiles, files));
    let outcomes: CachedOutcome[];
    try {
      const listed = await parseListedFiles(scanFiles, files, stats);
      outcomes = listed.outcomes;
      scanFiles.cache.prune(root, new Set(files.map((entry) => entry.filePath)));
      // Unchanged files give back the very outcomes of the last scan, and with them its resolution.
      if (!isLastScan(root, outcomes, listingWarnings))
        await parseReachedFiles(scanFiles, files, outcomes, listed.kept);
    } catch (err) {
      await pool.release();
      throw err;
    }
    return { outcomes, stopped: pool.release() };
  }

  async function scanNow(dir: string): Promise<ScanResult> {
    const root = path.resolve(dir);
    const stats: ScanStats = { parsed: 0, cached: 0, unreached: 0 };
    lastStats = stats;
    const opened = await openScanRoot(root);
    if ("result" in opened) return opened.result;
    const listing = await listPythonFiles(root, opened.realRoot, options.recursive ?? false);
    const files = listing.files;
    const { outcomes, stopped } = await parseFiles(root, files, listing.warnings, stats);
    try {
      return await resolveFiles(root, files, outcomes, listing.warnings, stats);
    } finally {
      await stopped;
    }
  }

  /** The parsed files resolved into the scan's result, or the last result when nothing it came from changed. */
  async function resolveFiles(
    root: string,
    files: readonly PythonFileEntry[],
    outcomes: CachedOutcome[],
    listingWarnings: readonly ScanWarning[],
    stats: ScanStats,
  ): Promise<ScanResult> {
    stats.unreached = outcomes.filter((outcome) => outcome.kind === "unreached").length;
    const [base, trainer] = await Promise.all([outsideClasses.baseConfig(), outsideClasses.trainerConfig()]);
    const sameClasses = lastResolved?.base === base.fields && lastResolved?.trainer === trainer.fields;
    if (lastResolved && sameClasses && isLastScan(root, outcomes, listingWarnings)) return lastResolved.result;
    const { result, memo } = await resolveScan(
      {
        files,
        outcomes,
        listingWarnings,
        lockedEnv: options.lockedEnv,
        base,
        trainer,
        trainerConfigFile: options.trainerConfigFile,
        previous: lastResolved?.root === root ? lastResolved.memo : undefined,
      },
      scanFiles.maybeYield,
    );
    lastResolved = { root, outcomes, result, memo, base: base.fields, trainer: trainer.fields };
    return result;
  }

  return {
    scan(dir) {
      const run = queue
        .then(() => scanNow(dir))
        .catch((err: unknown) => {
          throw asRlError(err);
        });
      queue = run.catch(() => undefined);
      return run;
    },
    stats: () => ({ ...lastStats }),
    close: () => pool.close(),
  };
}

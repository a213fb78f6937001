// Discovers Atropos environments in a folder without running them: list, read and parse (cached), then resolve.
import { createHash } from "node:crypto";
import { readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import type Parser from "tree-sitter";
import { asRlError } from "../errors.ts";
import { describeFsError } from "./describe-fs-error.ts";
import { forEachLimited } from "./for-each-limited.ts";
import { listPythonFiles, type PythonFileEntry } from "./list-python-files.ts";
import type { FileOutcome } from "./python-file-summary.ts";
import { resolveEnvironmentsStepwise } from "./resolve-environments.ts";
import type { SummarizedFile } from "./resolve-symbols.ts";
import { summarizePythonFile } from "./summarize-python-file.ts";
import { createSummaryCache } from "./summary-cache.ts";
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
}

export interface ScanStats {
  /** Files read and analysed from scratch by the latest scan. */
  parsed: number;
  /** Files whose earlier analysis the latest scan reused (unchanged stamp, or same content). */
  cached: number;
}

export interface EnvironmentScanner {
  scan(dir: string): Promise<ScanResult>;
  stats(): ScanStats;
}

const DEFAULT_MAX_FILE_BYTES = 1_000_000;
const READ_CONCURRENCY = 4;
/** The longest stretch of synchronous work before the scan gives chat acks and timers a turn. */
const SLICE_MS = 8;

export function createEnvironmentScanner(options: EnvironmentScannerOptions): EnvironmentScanner {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const read = options.readFile ?? ((filePath: string) => readFile(filePath));
  const cache = createSummaryCache();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let parser: Parser | undefined;
  let lastStats: ScanStats = { parsed: 0, cached: 0 };
  // The last resolution and the file outcomes it came from: unchanged files give back the same outcome objects.
  let lastResolved: { root: string; outcomes: FileOutcome[]; result: ScanResult } | undefined;
  let sliceStart = performance.now();
  const maybeYield = async (): Promise<void> => {
    if (performance.now() - sliceStart < (options.sliceMs ?? SLICE_MS)) return;
    await nextTurn();
    sliceStart = performance.now();
  };
  // Scans share the cache and the parser; one at a time keeps the counts and the cache consistent.
  let queue: Promise<unknown> = Promise.resolve();

  // The native parser is loaded on the first scan, not when the bot starts.
  async function ensureParser(): Promise<Parser> {
    if (!parser) {
      const [{ default: TreeSitter }, { default: Python }] = await Promise.all([import("tree-sitter"), import("tree-sitter-python")]);
      parser = new TreeSitter();
      parser.setLanguage(Python as Parser.Language);
    }
    return parser;
  }

  function parse(source: string): FileOutcome {
    if (!parser) throw new Error("the parser is loaded at the start of each scan");
    return summarizePythonFile(parser, source);
  }

  async function load(entry: PythonFileEntry, stats: ScanStats): Promise<FileOutcome> {
    const known = cache.byStamp(entry.filePath, entry.mtimeMs, entry.size);
    if (known) {
      stats.cached += 1;
      return known;
    }
    let bytes: Uint8Array;
    try {
      bytes = await read(entry.filePath);
    } catch (err) {
      return { kind: "refused", message: `could not be read (${describeFsError(err)}); skipped` };
    }
    // The file may have grown since it was listed.
    if (bytes.byteLength > maxFileBytes) return tooLarge(bytes.byteLength);
    const stamp = { mtimeMs: entry.mtimeMs, size: entry.size, sha1: createHash("sha1").update(bytes).digest("hex") };
    const sameContent = cache.byContent(entry.filePath, stamp);
    if (sameContent) {
      stats.cached += 1;
      return sameContent;
    }
    stats.parsed += 1;
    const outcome = analyse(bytes);
    cache.store(entry.filePath, stamp, outcome);
    return outcome;
  }

  function analyse(bytes: Uint8Array): FileOutcome {
    let source: string;
    try {
      source = decoder.decode(bytes);
    } catch {
      return { kind: "refused", message: "not valid UTF-8; skipped" };
    }
    try {
      return parse(source);
    } catch (err) {
      return { kind: "refused", message: `could not be parsed (${describeFsError(err)}); skipped` };
    }
  }

  function tooLarge(size: number): FileOutcome {
    return { kind: "refused", message: `file is ${size} bytes, over the ${maxFileBytes}-byte limit; skipped` };
  }

  async function scanNow(dir: string): Promise<ScanResult> {
    const root = path.resolve(dir);
    const stats: ScanStats = { parsed: 0, cached: 0 };
    lastStats = stats;
    let realRoot: string;
    try {
      realRoot = await realpath(root);
      if (!(await stat(realRoot)).isDirectory()) {
        return { environments: [], warnings: [{ filePath: root, message: "not a folder; nothing scanned" }] };
      }
    } catch (err) {
      const code = describeFsError(err);
      const message = code === "ENOENT" ? "environments folder not found" : `could not open the environments folder (${code})`;
      return { environments: [], warnings: [{ filePath: root, message }] };
    }
    const listing = await listPythonFiles(root, realRoot, options.recursive ?? false);
    await ensureParser();
    const outcomes: FileOutcome[] = new Array<FileOutcome>(listing.files.length);
    await forEachLimited(listing.files, READ_CONCURRENCY, async (entry, index) => {
      outcomes[index] = entry.size > maxFileBytes ? tooLarge(entry.size) : await load(entry, stats);
      // Parsing is synchronous: give chat acks and timers a turn whenever a slice is used up.
      await maybeYield();
    });
    cache.prune(root, new Set(listing.files.map((entry) => entry.filePath)));

    const same =
      lastResolved?.root === root &&
      lastResolved.outcomes.length === outcomes.length &&
      lastResolved.outcomes.every((outcome, i) => outcome === outcomes[i]) &&
      listing.warnings.length === 0;
    if (same && lastResolved) return lastResolved.result;

    const summarized: SummarizedFile[] = [];
    const fileWarnings: ScanWarning[] = [];
    listing.files.forEach((entry, index) => {
      const outcome = outcomes[index];
      if (outcome?.kind === "summary") summarized.push({ key: entry.key, filePath: entry.filePath, summary: outcome.summary });
      else if (outcome) fileWarnings.push({ filePath: entry.filePath, message: outcome.message });
    });
    const steps = resolveEnvironmentsStepwise({ files: summarized, lockedEnv: options.lockedEnv });
    let step = steps.next();
    while (!step.done) {
      await maybeYield();
      step = steps.next();
    }
    const resolved = step.value;
    const warnings = [...listing.warnings, ...fileWarnings, ...resolved.warnings];
    warnings.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
    const result = { environments: resolved.environments, warnings };
    lastResolved = { root, outcomes, result };
    return result;
  }

  return {
    scan(dir) {
      const run = queue.then(() => scanNow(dir)).catch((err: unknown) => {
        throw asRlError(err);
      });
      queue = run.catch(() => undefined);
      return run;
    },
    stats: () => ({ ...lastStats }),
  };
}

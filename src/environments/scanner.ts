// Discovers Atropos environments in a folder without running them: list, read and parse (cached; a file that cannot
// hold an environment only when a parsed file reaches it; on several threads when allowed), then resolve. Runs in
// whatever thread calls it: the bot runs it in a worker (threads/worker-scanner.ts), `rl-chatops scan` in its main thread.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { asRlError } from "../errors.ts";
import { addDefinedNames } from "./python/add-defined-names.ts";
import { addReferencedNames } from "./python/add-referenced-names.ts";
import { describeFsError } from "./describe-fs-error.ts";
import { forEachLimited } from "./for-each-limited.ts";
import { listPythonFiles, type PythonFileEntry } from "./scanning/list-python-files.ts";
import { createParsePool, type ParsePool } from "./threads/parse-pool.ts";
import type { FileOutcome, FileSummary } from "./python/python-file-summary.ts";
import type { BaseEnvConfigField } from "./resolution/base-env-config.ts";
import { findAtroposlib, type AtroposlibLookup } from "./resolution/find-atroposlib.ts";
import { readConfigClassFields } from "./resolution/read-config-class-fields.ts";
import { resolveEnvironmentsStepwise } from "./resolution/resolve-environments.ts";
import type { SummarizedFile } from "./resolution/resolve-symbols.ts";
import { skimPythonFile } from "./python/skim-python-file.ts";
import { createSummaryCache, type CachedOutcome, type FileStamp } from "./scanning/summary-cache.ts";
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
  /** Stops the helper threads a scan in progress uses (scans still work afterwards). */
  close(): Promise<void>;
}

const DEFAULT_MAX_FILE_BYTES = 1_000_000;
const MIN_READ_CONCURRENCY = 4;
/** The longest stretch of synchronous work before the scan gives chat acks and timers a turn. */
const SLICE_MS = 8;

/** A file's bytes as read by this scan, and the stamp they are cached under. */
interface ReadFile {
  bytes: Uint8Array;
  stamp: FileStamp;
}

/** What a file's module name is, as other files import it. */
const moduleNameOf = (entry: PythonFileEntry): string => path.posix.basename(entry.key, ".py");
/** A package's __init__ is reached by relative imports that name no file (`from . import x`): always parsed. */
const isPackageInit = (entry: PythonFileEntry): boolean => moduleNameOf(entry) === "__init__";

export function createEnvironmentScanner(options: EnvironmentScannerOptions): EnvironmentScanner {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  // Synchronous reads cost this thread far less than the promise API's four round trips a file, and this thread is
  // discovery's own (a worker in the bot, the command's main thread in `rl-chatops scan`).
  const read = options.readFile ?? (async (filePath: string) => readFileSync(filePath));
  const threads = Math.max(1, options.parseThreads ?? 1);
  const concurrency = Math.max(MIN_READ_CONCURRENCY, 2 * threads + 1);
  const cache = createSummaryCache();
  const pool = options.parsePool ?? createParsePool(threads);
  // The names each summary reaches, computed once per summary object (warm rescans reuse them).
  const referencedBy = new WeakMap<object, Set<string>>();
  let lastStats: ScanStats = { parsed: 0, cached: 0, unreached: 0 };
  // The last resolution and the file outcomes it came from: unchanged files give back the same outcome objects.
  let lastResolved:
    { root: string; outcomes: CachedOutcome[]; result: ScanResult; base?: unknown; trainer?: unknown } | undefined;
  let sliceStart = performance.now();
  const maybeYield = async (): Promise<void> => {
    if (performance.now() - sliceStart < (options.sliceMs ?? SLICE_MS)) return;
    await nextTurn();
    sliceStart = performance.now();
  };
  /**
   * A parse in this thread holds it until done, so a used-up slice is given back first: the event loop then also
   * takes in what the helper threads have answered and hands them more, instead of leaving them idle while this
   * thread parses several files back to back.
   */
  const parseNext = async (bytes: Uint8Array): Promise<FileOutcome> => {
    await maybeYield();
    return pool.parse(bytes);
  };
  // Scans share the cache and the parser; one at a time keeps the counts and the cache consistent.
  let queue: Promise<unknown> = Promise.resolve();

  function tooLarge(size: number): FileOutcome {
    return { kind: "refused", message: `file is ${size} bytes, over the ${maxFileBytes}-byte limit; skipped` };
  }

  /** The file's bytes and stamp, or the outcome that says why it cannot be analysed. */
  async function readEntry(entry: PythonFileEntry): Promise<ReadFile | { outcome: FileOutcome }> {
    let bytes: Uint8Array;
    try {
      bytes = await read(entry.filePath);
    } catch (err) {
      return { outcome: { kind: "refused", message: `could not be read (${describeFsError(err)}); skipped` } };
    }
    // The file may have grown since it was listed.
    if (bytes.byteLength > maxFileBytes) return { outcome: tooLarge(bytes.byteLength) };
    return {
      bytes,
      stamp: { mtimeMs: entry.mtimeMs, size: entry.size, sha1: createHash("sha1").update(bytes).digest("hex") },
    };
  }

  /** First pass: the cached outcome, or the file read and, if it may hold an environment of its own, parsed. */
  async function load(
    entry: PythonFileEntry,
    stats: ScanStats,
    keep: (read: ReadFile) => void,
  ): Promise<CachedOutcome> {
    const known = cache.byStamp(entry.filePath, entry.mtimeMs, entry.size);
    if (known) {
      stats.cached += 1;
      return known;
    }
    const got = await readEntry(entry);
    if ("outcome" in got) return got.outcome;
    const sameContent = cache.byContent(entry.filePath, got.stamp);
    if (sameContent) {
      stats.cached += 1;
      if (sameContent.kind === "unreached") keep(got);
      return sameContent;
    }
    stats.parsed += 1;
    const skimmed = isPackageInit(entry) ? "parse" : skimPythonFile(got.bytes);
    const outcome = skimmed === "parse" ? await parseNext(got.bytes) : skimmed;
    if (outcome.kind === "unreached") keep(got);
    cache.store(entry.filePath, got.stamp, outcome);
    return outcome;
  }

  /**
   * Second pass: an unparsed file is parsed once a parsed file reaches it, by its module name or one of its class names
   * (the names a parsed file uses), or once it mentions a name a parsed file binds (a base it may derive from); then
   * again with what that file adds, until nothing more is reached.
   */
  async function parseReached(
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
      let names = referencedBy.get(outcome);
      if (!names) {
        names = new Set();
        addReferencedNames(outcome.summary, names);
        referencedBy.set(outcome, names);
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
      await forEachLimited(reached, concurrency, async (index) => {
        const entry = files[index]!;
        // Read again when the first pass found it in the cache.
        const got = kept.get(index) ?? (await readEntry(entry));
        let outcome: CachedOutcome;
        if ("outcome" in got) outcome = got.outcome;
        else {
          outcome = await parseNext(got.bytes);
          cache.store(entry.filePath, got.stamp, outcome);
        }
        outcomes[index] = outcome;
        learn(outcome);
        await maybeYield();
      });
    }
  }

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

  // A config class outside the folder (atroposlib's BaseEnvConfig, the trainer's TinkerConfig), read again only when
  // its file's stamp changes.
  const classFiles = new Map<string, { stamp: string; fields?: BaseEnvConfigField[]; warning?: ScanWarning }>();
  async function readClassFile(
    file: string,
    className: string,
    what: string,
  ): Promise<{ fields?: BaseEnvConfigField[]; warning?: ScanWarning }> {
    let known = classFiles.get(file);
    try {
      const info = await stat(file);
      const stamp = `${info.mtimeMs}:${info.size}`;
      if (known?.stamp !== stamp) {
        const outcome = await pool.parse(await read(file));
        const fields = outcome.kind === "summary" ? readConfigClassFields(outcome.summary, file, className) : undefined;
        known = fields
          ? { stamp, fields }
          : {
              stamp,
              warning: {
                filePath: file,
                message: `${className} could not be read here; the bundled copy of ${what} is used`,
              },
            };
      }
    } catch (err) {
      known = {
        stamp: "",
        warning: {
          filePath: file,
          message: `the file of ${className} could not be read (${describeFsError(err)}); the bundled copy of ${what} is used`,
        },
      };
    }
    classFiles.set(file, known);
    return known;
  }

  // Asked once, in the background: the training Python does not change while the bot runs, and a scan never waits
  // for it (starting Python can take a second); the scans after its answer use atroposlib's fields.
  let atroposlibDir: { dir?: string } | undefined;
  let asked = false;
  async function baseConfig(): Promise<{ fields?: BaseEnvConfigField[]; warning?: ScanWarning; source?: string }> {
    if (!options.atroposlib) return {};
    if (!asked) {
      asked = true;
      const lookup = options.atroposlib;
      if ("dir" in lookup) atroposlibDir = { dir: lookup.dir };
      else
        void findAtroposlib(lookup).then(
          (dir) => (atroposlibDir = dir ? { dir } : {}),
          () => (atroposlibDir = {}),
        );
    }
    const dir = atroposlibDir?.dir;
    if (!dir) return {};
    const file = path.join(dir, "envs", "base.py");
    const read = await readClassFile(file, "BaseEnvConfig", "BaseEnvConfig's fields");
    return { ...read, ...(read.fields ? { source: file } : {}) };
  }

  async function trainerConfig(): Promise<{ fields?: BaseEnvConfigField[]; warning?: ScanWarning }> {
    const file = options.trainerConfigFile;
    if (!file) return {};
    // A training root without tinker-atropos's config.py is no error: the bundled table describes the trainer.
    const exists = await stat(file).then(
      () => true,
      () => false,
    );
    return exists ? readClassFile(file, "TinkerConfig", "the trainer's fields") : {};
  }

  async function scanNow(dir: string): Promise<ScanResult> {
    const root = path.resolve(dir);
    const stats: ScanStats = { parsed: 0, cached: 0, unreached: 0 };
    lastStats = stats;
    let realRoot: string;
    try {
      realRoot = await realpath(root);
      if (!(await stat(realRoot)).isDirectory()) {
        return { environments: [], warnings: [{ filePath: root, message: "not a folder; nothing scanned" }] };
      }
    } catch (err) {
      const code = describeFsError(err);
      const message =
        code === "ENOENT" ? "environments folder not found" : `could not open the environments folder (${code})`;
      return { environments: [], warnings: [{ filePath: root, message }] };
    }
    const listing = await listPythonFiles(root, realRoot, options.recursive ?? false);
    const files = listing.files;
    const outcomes = new Array<CachedOutcome>(files.length);
    const kept = new Map<number, ReadFile>();
    pool.prepare(
      files.reduce(
        (sum, entry) =>
          entry.size <= maxFileBytes && !cache.byStamp(entry.filePath, entry.mtimeMs, entry.size)
            ? sum + entry.size
            : sum,
        0,
      ),
    );
    try {
      // Largest first, so the threads finish together instead of one parsing the biggest file at the end.
      const order = files.map((_, index) => index).sort((a, b) => files[b]!.size - files[a]!.size);
      await forEachLimited(order, concurrency, async (index) => {
        const entry = files[index]!;
        outcomes[index] =
          entry.size > maxFileBytes ? tooLarge(entry.size) : await load(entry, stats, (got) => kept.set(index, got));
        // Parsing is synchronous: give chat acks and timers a turn whenever a slice is used up.
        await maybeYield();
      });
      cache.prune(root, new Set(files.map((entry) => entry.filePath)));
      // Unchanged files give back the very outcomes of the last scan, and with them its resolution.
      if (!isLastScan(root, outcomes, listing.warnings)) await parseReached(files, outcomes, kept);
    } finally {
      await pool.release();
    }
    stats.unreached = outcomes.filter((outcome) => outcome.kind === "unreached").length;
    const [atroposlib, trainer] = await Promise.all([baseConfig(), trainerConfig()]);
    const sameClasses = lastResolved?.base === atroposlib.fields && lastResolved?.trainer === trainer.fields;
    if (lastResolved && sameClasses && isLastScan(root, outcomes, listing.warnings)) return lastResolved.result;

    const summarized: SummarizedFile[] = [];
    const fileWarnings: ScanWarning[] = [];
    files.forEach((entry, index) => {
      const outcome = outcomes[index];
      if (outcome?.kind === "summary")
        summarized.push({ key: entry.key, filePath: entry.filePath, summary: outcome.summary });
      else if (outcome?.kind === "refused") fileWarnings.push({ filePath: entry.filePath, message: outcome.message });
    });
    for (const warning of [atroposlib.warning, trainer.warning]) if (warning) fileWarnings.push(warning);
    const steps = resolveEnvironmentsStepwise({
      files: summarized,
      lockedEnv: options.lockedEnv,
      ...(atroposlib.fields ? { baseFields: atroposlib.fields } : {}),
    });
    let step = steps.next();
    while (!step.done) {
      await maybeYield();
      step = steps.next();
    }
    const resolved = step.value;
    const warnings = [...listing.warnings, ...fileWarnings, ...resolved.warnings];
    warnings.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
    const result: ScanResult = {
      environments: resolved.environments,
      warnings,
      ...(atroposlib.source ? { baseConfigSource: atroposlib.source } : {}),
      ...(trainer.fields ? { trainerFields: trainer.fields, trainerConfigSource: options.trainerConfigFile } : {}),
    };
    lastResolved = { root, outcomes, result, base: atroposlib.fields, trainer: trainer.fields };
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
    close: () => pool.release(),
  };
}

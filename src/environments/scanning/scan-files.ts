// What both parse passes of a scan share: the cache, reading a listed file, and parsing it on the scan's threads.
import type * as Crypto from "node:crypto";
import { describeFsError } from "../describe-fs-error.ts";
import type { FileOutcome } from "../python/python-file-summary.ts";
import type { ParsePool } from "../threads/parse-pool.ts";
import type { PythonFileEntry } from "./list-python-files.ts";
import type { FileStamp, SummaryCache } from "./summary-cache.ts";
import type { MaybeYield } from "./time-slicer.ts";

/** One scanner's means of reading and parsing files, kept from one scan to the next. */
export interface ScanFiles {
  cache: SummaryCache;
  pool: ParsePool;
  read: (filePath: string) => Promise<Uint8Array>;
  maxFileBytes: number;
  maybeYield: MaybeYield;
  /** The names each summary reaches, computed once per summary object (warm rescans reuse them). */
  referencedBy: WeakMap<object, Set<string>>;
  /** Files are known by their paths, not hashed: the scanner scans once (EnvironmentScannerOptions.scansOnce). */
  scansOnce: boolean;
}

/** A file's bytes as read by this scan, and the stamp they are cached under. */
export interface ReadFile {
  bytes: Uint8Array;
  stamp: FileStamp;
}

export function tooLarge(scan: ScanFiles, size: number): FileOutcome {
  return { kind: "refused", message: `file is ${size} bytes, over the ${scan.maxFileBytes}-byte limit; skipped` };
}

/** The file's bytes and stamp, or the outcome that says why it cannot be analysed. */
export async function readEntry(scan: ScanFiles, entry: PythonFileEntry): Promise<ReadFile | { outcome: FileOutcome }> {
  let bytes: Uint8Array;
  try {
    bytes = await scan.read(entry.filePath);
  } catch (err) {
    return { outcome: { kind: "refused", message: `could not be read (${describeFsError(err)}); skipped` } };
  }
  // The file may have grown since it was listed.
  if (bytes.byteLength > scan.maxFileBytes) return { outcome: tooLarge(scan, bytes.byteLength) };
  const content = scan.scansOnce ? `path:${entry.filePath}` : await contentHash(bytes);
  return { bytes, stamp: { mtimeMs: entry.mtimeMs, size: entry.size, content } };
}

let crypto: Promise<typeof Crypto> | undefined;
/** The content's SHA-1; crypto is loaded with the first file hashed. */
async function contentHash(bytes: Uint8Array): Promise<string> {
  crypto ??= import("node:crypto");
  return `sha1:${(await crypto).createHash("sha1").update(bytes).digest("hex")}`;
}

/**
 * Collects files to parse and parses them on the scan's threads in batches, so a large folder's bytes are not all held
 * at once: `add` parses the batch once it holds BATCH_BYTES, `flush` parses what is left. Each file's outcome goes to
 * the callback it was added with. This thread gives the event loop a turn before each of its own parses when its slice
 * is used up; the helpers take files from the batch by themselves meanwhile.
 */
export function batchParses(scan: ScanFiles): {
  add(bytes: Uint8Array, parsed: (outcome: FileOutcome) => void): Promise<void>;
  flush(): Promise<void>;
} {
  let files: Uint8Array[] = [];
  let callbacks: Array<(outcome: FileOutcome) => void> = [];
  let held = 0;
  async function flush(): Promise<void> {
    const [batch, answer] = [files, callbacks];
    [files, callbacks, held] = [[], [], 0];
    const outcomes = await scan.pool.parseAll(batch, scan.maybeYield);
    outcomes.forEach((outcome, index) => answer[index]!(outcome));
  }
  return {
    async add(bytes, parsed) {
      files.push(bytes);
      callbacks.push(parsed);
      held += bytes.byteLength;
      if (held >= BATCH_BYTES) await flush();
    },
    flush,
  };
}

/** The most bytes a batch of files shared with the helper threads holds (its last file may go beyond it). */
const BATCH_BYTES = 16 * 1024 * 1024;

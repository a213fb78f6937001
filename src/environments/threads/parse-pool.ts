// Parses a scan's files in this thread and, when a scan has much to parse and more threads are allowed, in helper
// threads too (parse-worker.ts): tree-sitter's parse and the summary walk are synchronous, so more threads is the only
// way to use more cores. The files of a batch are shared with the helpers, and every thread takes the next file none
// has taken (parse-batch.ts): a helper never waits for this thread's event loop to hand it work. Helpers live for one
// scan and keep the process alive only while a batch of theirs is open.
import type { Worker } from "node:worker_threads";
import { analysePythonFile } from "../python/analyse-python-file.ts";
import type { FileOutcome } from "../python/python-file-summary.ts";
import { Claims, HERE, shareBytes, type BatchRequest, type BatchResponse } from "./parse-batch.ts";
import { pythonParser } from "./load-python-parser.ts";
import { spawnWorker, stopWorker } from "./spawn-worker.ts";

/** Called by this thread before each file it takes: the scan gives the event loop a turn when its slice is used up. */
export type BeforeEachFile = () => Promise<void>;

export interface ParsePool {
  /** Starts the helpers, if this pool may have any and `bytes` is worth them, for a scan about to parse up to that much. */
  prepare(bytes: number): void;
  /** Parses `files` on this thread and the helpers; the outcomes in the files' order. */
  parseAll(files: readonly Uint8Array[], beforeEach?: BeforeEachFile): Promise<FileOutcome[]>;
  /** One file: `parseAll` of it alone. */
  parse(bytes: Uint8Array): Promise<FileOutcome>;
  /** Stops the helpers; a later large scan starts new ones. */
  release(): Promise<void>;
  /** Stops the helpers for good: a scan still running parses in this thread from now on. */
  close(): Promise<void>;
}

/**
 * Below this much to parse, a helper started with the scan costs more than it saves: starting a thread, its parser
 * and its cold code take about 0.1 s of CPU, and 18 Atropos-sized files (540 KB) were scanned faster by one thread
 * than by two. A helper started before the scan needs it (rl-chatops scan starts it before reading the settings) is
 * worth it for those 18 files too.
 */
export const HELPER_MIN_BYTES = 1024 * 1024;

interface Helper {
  worker: Worker;
  /** Its number in the batches' claims tables. */
  number: number;
  dead: boolean;
  /** The open batches it was sent. */
  batches: Set<Batch>;
}

interface Batch {
  id: number;
  files: readonly Uint8Array[];
  claims: Claims;
  outcomes: Array<FileOutcome | undefined>;
  left: number;
  /** Settles the batch's promise once every file has its outcome (or one failed here). */
  done: { resolve: () => void; reject: (err: unknown) => void };
}

export interface ParsePoolOptions {
  /**
   * The least a scan must have to parse for `prepare` to start helpers (default HELPER_MIN_BYTES). A process that does
   * nothing but one scan passes 0 and starts them before it loads anything else: they are ready by the time it has
   * listed the folder.
   */
  helperMinBytes?: number;
}

const noTurn: BeforeEachFile = async () => undefined;

/** `threads`: how many threads may parse, this one included. */
export function createParsePool(threads: number, options: ParsePoolOptions = {}): ParsePool {
  const helperMinBytes = options.helperMinBytes ?? HELPER_MIN_BYTES;
  let helpers: Helper[] = [];
  let helpersStarted = 0;
  let nextBatch = 0;
  let closed = false;
  const open = new Map<number, Batch>();
  /**
   * Every helper asked to stop that has not yet exited, whichever release asked it: a release that finds no helpers of
   * its own (a scan's end raced a stop) still waits for these. The thread that started them may exit, which would
   * terminate them where they stand, possibly still loading their parser or parsing.
   */
  const leaving = new Set<Promise<void>>();

  /** File `index` of `batch` parsed in this thread, unless another thread's outcome is in already. */
  function parseHere(batch: Batch, index: number): void {
    if (batch.outcomes[index] === undefined)
      deliver(batch, index, analysePythonFile(pythonParser(), batch.files[index]!));
  }

  /** parseHere for a file a helper leaves: a failure fails the batch's parseAll. */
  function takeOver(batch: Batch, index: number): void {
    try {
      parseHere(batch, index);
    } catch (err) {
      batch.done.reject(err);
    }
  }

  function deliver(batch: Batch, index: number, outcome: FileOutcome): void {
    if (batch.outcomes[index] !== undefined) return;
    batch.outcomes[index] = outcome;
    batch.left -= 1;
    if (batch.left === 0) batch.done.resolve();
  }

  function startHelper(): Helper {
    helpersStarted += 1;
    const helper: Helper = {
      worker: spawnWorker("parse-worker"),
      number: helpersStarted,
      dead: false,
      batches: new Set(),
    };
    helper.worker.unref();
    helper.worker.on("message", (response: BatchResponse) => {
      const batch = open.get(response.batch);
      if (!batch) return;
      if ("outcome" in response) deliver(batch, response.index, response.outcome);
      else takeOver(batch, response.index);
    });
    helper.worker.on("error", () => retire(helper, true));
    helper.worker.on("exit", () => retire(helper, true));
    return helper;
  }

  /**
   * A helper that is being stopped (`gone` false) or has failed or exited takes no more files, and what it took and
   * has not answered is parsed here instead (its answer, should it still come, is then ignored). Once gone, it is
   * looked at again: a helper being stopped may have taken one more file as it was told to stop.
   */
  function retire(helper: Helper, gone: boolean): void {
    if (helper.dead && !gone) return;
    helper.dead = true;
    for (const batch of helper.batches) {
      batch.claims.stopHelpers();
      for (const index of batch.claims.takenBy(helper.number)) takeOver(batch, index);
    }
    if (gone) helper.batches.clear();
  }

  async function parseAll(files: readonly Uint8Array[], beforeEach: BeforeEachFile = noTurn): Promise<FileOutcome[]> {
    if (files.length === 0) return [];
    let settle!: Batch["done"];
    const finished = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    // Failed by a file taken over from a helper while this thread is still taking files: awaited below, not before.
    finished.catch(() => undefined);
    const batch: Batch = {
      id: nextBatch++,
      files,
      claims: Claims.create(files.length),
      outcomes: new Array(files.length),
      left: files.length,
      done: settle,
    };
    const sharing = helpers.filter((helper) => !helper.dead);
    if (sharing.length > 0) {
      open.set(batch.id, batch);
      const shared = shareBytes(files);
      for (const helper of sharing) {
        helper.batches.add(batch);
        helper.worker.ref();
        helper.worker.postMessage({
          batch: batch.id,
          ...shared,
          claims: batch.claims.table.buffer as SharedArrayBuffer,
          helper: helper.number,
        } satisfies BatchRequest);
      }
    }
    try {
      for (;;) {
        await beforeEach();
        const index = batch.claims.take(HERE);
        if (index === undefined) break;
        parseHere(batch, index);
      }
      await finished;
      return batch.outcomes as FileOutcome[];
    } finally {
      batch.claims.stopHelpers();
      open.delete(batch.id);
      for (const helper of sharing) {
        helper.batches.delete(batch);
        if (helper.batches.size === 0) helper.worker.unref();
      }
    }
  }

  return {
    prepare(bytes) {
      if (closed || threads <= 1 || bytes < helperMinBytes) return;
      helpers = helpers.filter((helper) => !helper.dead);
      while (helpers.length < threads - 1) helpers.push(startHelper());
    },
    parseAll,
    parse: async (bytes) => (await parseAll([bytes]))[0]!,
    release,
    close() {
      closed = true;
      return release();
    },
  };

  async function release(): Promise<void> {
    const stopping = helpers;
    helpers = [];
    for (const helper of stopping) retire(helper, false);
    for (const helper of stopping) {
      const stopped = stopWorker(helper.worker).finally(() => leaving.delete(stopped));
      leaving.add(stopped);
    }
    await Promise.all([...leaving]);
  }
}

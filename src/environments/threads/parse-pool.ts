// Parses a scan's files in this thread and, when a scan has much to parse and more threads are allowed, in helper
// threads too (parse-worker.ts): tree-sitter's parse and the summary walk are synchronous, so more threads is the only
// way to use more cores. Helpers live for one scan and keep the process alive only while they owe an answer.
import type { Worker } from "node:worker_threads";
import { analysePythonFile } from "../python/analyse-python-file.ts";
import { pythonParser } from "./load-python-parser.ts";
import type { FileOutcome } from "../python/python-file-summary.ts";
import { spawnWorker, stopWorker } from "./spawn-worker.ts";

export interface ParseRequest {
  id: number;
  bytes: Uint8Array;
}

export type ParseResponse = { id: number; outcome: FileOutcome } | { id: number; failed: string } | { ready: true };

export interface ParsePool {
  /** Starts the helpers, if this pool may have any and `bytes` is worth them, for a scan about to parse up to that much. */
  prepare(bytes: number): void;
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
/**
 * Requests a helper holds at once: one being parsed and some waiting, so it does not run dry while this thread parses
 * a large file and cannot hand it more (4 beat 2 and 8 on the Atropos-shaped folder: 1.59 s, 1.65 s, 2.0 s).
 */
const HELPER_QUEUE = 4;

interface Task {
  bytes: Uint8Array;
  resolve: (outcome: FileOutcome) => void;
  reject: (err: unknown) => void;
}

interface Helper {
  worker: Worker;
  /** Until it says its parser is loaded (or answers) a helper is still starting: it gets one request, not a queue. */
  ready: boolean;
  dead: boolean;
  inFlight: Map<number, Task>;
}

export interface ParsePoolOptions {
  /**
   * The least a scan must have to parse for `prepare` to start helpers (default HELPER_MIN_BYTES). A process that does
   * nothing but one scan passes 0 and starts them before it loads anything else: they are ready by the time it has
   * listed the folder.
   */
  helperMinBytes?: number;
}

/** `threads`: how many threads may parse, this one included. */
export function createParsePool(threads: number, options: ParsePoolOptions = {}): ParsePool {
  const helperMinBytes = options.helperMinBytes ?? HELPER_MIN_BYTES;
  let helpers: Helper[] = [];
  let nextId = 0;
  let closed = false;
  /**
   * Every helper asked to stop that has not yet exited, whichever release asked it: a release that finds no helpers of
   * its own (a scan's end raced a stop) still waits for these. The thread that started them may exit, which would
   * terminate them where they stand, possibly still loading their parser or parsing.
   */
  const leaving = new Set<Promise<void>>();

  const parseHere = async (bytes: Uint8Array): Promise<FileOutcome> => analysePythonFile(pythonParser(), bytes);

  function startHelper(): Helper {
    const helper: Helper = { worker: spawnWorker("parse-worker"), ready: false, dead: false, inFlight: new Map() };
    helper.worker.unref();
    helper.worker.on("message", (response: ParseResponse) => {
      helper.ready = true;
      if ("ready" in response) return;
      const task = helper.inFlight.get(response.id);
      if (!task) return;
      helper.inFlight.delete(response.id);
      if (helper.inFlight.size === 0) helper.worker.unref();
      if ("outcome" in response) task.resolve(response.outcome);
      else parseHere(task.bytes).then(task.resolve, task.reject);
    });
    helper.worker.on("error", () => retire(helper));
    helper.worker.on("exit", () => retire(helper));
    return helper;
  }

  /** A helper that failed or is being stopped hands back what it still owes: those files are parsed here instead. */
  function retire(helper: Helper): void {
    if (helper.dead) return;
    helper.dead = true;
    const owed = [...helper.inFlight.values()];
    helper.inFlight.clear();
    for (const task of owed) parseHere(task.bytes).then(task.resolve, task.reject);
  }

  function freeHelper(): Helper | undefined {
    let best: Helper | undefined;
    for (const helper of helpers) {
      if (helper.dead || helper.inFlight.size >= (helper.ready ? HELPER_QUEUE : 1)) continue;
      if (!best || helper.inFlight.size < best.inFlight.size) best = helper;
    }
    return best;
  }

  return {
    prepare(bytes) {
      if (closed || threads <= 1 || bytes < helperMinBytes) return;
      helpers = helpers.filter((helper) => !helper.dead);
      while (helpers.length < threads - 1) helpers.push(startHelper());
    },
    parse(bytes) {
      const helper = freeHelper();
      if (!helper) return parseHere(bytes);
      return new Promise<FileOutcome>((resolve, reject) => {
        const id = nextId++;
        helper.inFlight.set(id, { bytes, resolve, reject });
        helper.worker.ref();
        helper.worker.postMessage({ id, bytes } satisfies ParseRequest);
      });
    },
    release,
    close() {
      closed = true;
      return release();
    },
  };

  async function release(): Promise<void> {
    const stopping = helpers;
    helpers = [];
    for (const helper of stopping) retire(helper);
    for (const helper of stopping) {
      const stopped = stopWorker(helper.worker).finally(() => leaving.delete(stopped));
      leaving.add(stopped);
    }
    await Promise.all([...leaving]);
  }
}

// The gates that let a discovery thread be terminated only while no thread it started is inside tree-sitter.
import { isMainThread, workerData } from "node:worker_threads";

/**
 * A gate is one shared Int32: how many threads of its tree are inside a parse right now, or CLOSED once the tree is
 * being terminated. Each thread started by spawnWorker gets a gate of its own and the gates of the thread that started
 * it (and so on up): a parse counts in all of them, so closing a thread's gate also waits for its helpers' parses.
 */
const CLOSED = -1;

export interface ParseGates {
  /** The gates of the thread this is, its own last; none in the main thread, which is never terminated. */
  readonly parseGates: SharedArrayBuffer[];
}

function inheritedGates(): SharedArrayBuffer[] {
  if (isMainThread) return [];
  const gates = (workerData as Partial<ParseGates> | null | undefined)?.parseGates;
  return Array.isArray(gates) ? gates.filter((gate) => gate instanceof SharedArrayBuffer) : [];
}

const ownBuffers = inheritedGates();
const own = ownBuffers.map((buffer) => new Int32Array(buffer));

/** The gates for a thread this one starts: this thread's, then a new one that is the new thread's own. */
export function gatesForNewThread(): SharedArrayBuffer[] {
  return [...ownBuffers, new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)];
}

/** Counts one more parse in `gate` unless it is closed; false when it is. */
function enter(gate: Int32Array): boolean {
  for (;;) {
    const count = Atomics.load(gate, 0);
    if (count === CLOSED) return false;
    if (Atomics.compareExchange(gate, 0, count, count + 1) === count) return true;
  }
}

/**
 * Runs `parse` (anything that is inside tree-sitter) counted in this thread's gates. Once one of them is closed this
 * thread is about to be terminated, and it stops here instead of starting a parse it could not leave safely.
 */
export function withinParseGates<T>(parse: () => T): T {
  if (own.length === 0) return parse();
  const entered = own.findIndex((gate) => !enter(gate));
  if (entered !== -1) {
    for (const gate of own.slice(0, entered)) Atomics.sub(gate, 0, 1);
    process.exit(0);
  }
  try {
    return parse();
  } finally {
    for (const gate of own) Atomics.sub(gate, 0, 1);
  }
}

/**
 * Closes the gate of a thread's tree if none of its threads is inside a parse: from then on none starts one, and the
 * tree may be terminated. False while a parse is running.
 */
export function closeGate(gate: SharedArrayBuffer): boolean {
  return Atomics.compareExchange(new Int32Array(gate), 0, 0, CLOSED) === 0;
}

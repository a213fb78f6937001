// A batch of files parsed by several threads at once: the files' bytes and a table of claims, both in shared memory.
// Each thread takes the next file no thread has taken (an atomic counter) until none is left, so no thread waits for
// another to hand it work, and a thread that is busy or still starting simply takes fewer.
import type { FileOutcome } from "../python/python-file-summary.ts";

/** What a helper is sent for a batch: everything it needs to take files from it. */
export interface BatchRequest {
  batch: number;
  /** The files' bytes one after another; file i is bytes [ends[i-1] (or 0), ends[i]). */
  bytes: SharedArrayBuffer;
  ends: number[];
  /** The claims table (see Claims). */
  claims: SharedArrayBuffer;
  /** The helper's number, written beside each file it takes (a positive number; this thread is HERE). */
  helper: number;
}

/** A helper's answer for one file it took; `failed` when it could not parse it (the scanner parses it itself). */
export type BatchResponse =
  { batch: number; index: number; outcome: FileOutcome } | { batch: number; index: number; failed: string };

const NEXT = 0;
const STOP = 1;
const OWNERS = 2;
/** The owner written for a file the calling thread took. */
export const HERE = -1;

/** The claims of one batch: the next file to take, whether helpers are to stop taking, and who took each file. */
export class Claims {
  readonly table: Int32Array;
  constructor(
    buffer: SharedArrayBuffer,
    readonly count: number,
  ) {
    this.table = new Int32Array(buffer);
  }

  static create(count: number): Claims {
    return new Claims(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * (OWNERS + count)), count);
  }

  /** The index of the next file, now `owner`'s, or undefined when every file is taken. */
  take(owner: number): number | undefined {
    const index = Atomics.add(this.table, NEXT, 1);
    if (index >= this.count) return undefined;
    Atomics.store(this.table, OWNERS + index, owner);
    return index;
  }

  /** Helpers take no more files from this batch (the calling thread still does). */
  stopHelpers(): void {
    Atomics.store(this.table, STOP, 1);
  }

  get helpersStopped(): boolean {
    return Atomics.load(this.table, STOP) !== 0;
  }

  /**
   * The files `owner` may have taken: those written as its own, and those taken whose owner is not written yet (the
   * moment between a thread's two steps in `take`).
   */
  takenBy(owner: number): number[] {
    const taken = Math.min(Atomics.load(this.table, NEXT), this.count);
    const found: number[] = [];
    for (let index = 0; index < taken; index++) {
      const written = Atomics.load(this.table, OWNERS + index);
      if (written === owner || written === 0) found.push(index);
    }
    return found;
  }
}

/** The files' bytes copied once into shared memory, which every helper reads without a copy of its own. */
export function shareBytes(files: readonly Uint8Array[]): { bytes: SharedArrayBuffer; ends: number[] } {
  const total = files.reduce((sum, file) => sum + file.byteLength, 0);
  const bytes = new SharedArrayBuffer(total);
  const view = new Uint8Array(bytes);
  const ends: number[] = [];
  let at = 0;
  for (const file of files) {
    view.set(file, at);
    at += file.byteLength;
    ends.push(at);
  }
  return { bytes, ends };
}

/** File `index` of a batch's shared bytes. */
export function fileOf(request: Pick<BatchRequest, "bytes" | "ends">, index: number): Uint8Array {
  const start = index === 0 ? 0 : request.ends[index - 1]!;
  return new Uint8Array(request.bytes, start, request.ends[index]! - start);
}

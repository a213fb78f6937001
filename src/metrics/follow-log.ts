// Reads a growing log line by line from where the last read stopped, so every line counts once and a long log is never
// read again from its start: what the lines say (a run's steps, its step errors) is folded into a state kept per file.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { setImmediate as nextTurn } from "node:timers/promises";

// Plain synchronous calls, a chunk at a time with the loop let go between chunks: the logs are in the bot's own data
// folder, on the local disk SQLite needs too, where an open, a stat and a read of what a log gained take microseconds,
// while each round trip through the thread pool costs the main thread more than the read itself (a digest pass over a
// thousand runs spent 60% of its time on them). Opened without blocking, so a log that is a FIFO never holds the bot.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** How a log's lines build up what a reader wants to know of it. */
export interface LineFold<S> {
  initial(): S;
  /** `start` is the line's byte offset in the file (an index of where records begin needs no more). */
  add(state: S, line: string, start: number): void;
  /** A line longer than MAX_LINE_BYTES, given only where it starts: a fold that counts lines still counts it. */
  addLong?(state: S, start: number): void;
}

interface Followed<S> {
  /** The file read (a log replaced under the same name, or cut short, is read again from its start). */
  ino: number;
  offset: number;
  /** The start of a line not yet ended by a newline (bytes: it may end inside a character): added once it is finished. */
  partial: Buffer;
  /** In a line longer than MAX_LINE_BYTES: the rest of it is skipped (no reader looks for anything in such a line). */
  skipping: boolean;
  /** Where the line being read began. */
  lineStart: number;
  state: S;
  /** Reads of one file one after another, so no line is read twice or skipped. */
  reading: Promise<unknown>;
}

/** Files followed at once, each with its state: the logs of the live runs and of those looked at lately. */
const MAX_FOLLOWED = 256;
/** One read's bite: a log that grew by gigabytes is taken in pieces, not loaded whole. */
const CHUNK_BYTES = 1024 * 1024;
/** Longer lines (a dump with no newline) are not kept whole while they are written. */
const MAX_LINE_BYTES = 64 * 1024;

/**
 * A reader of logs that `fold` folds into a state: each call reads what was appended to the file since the last call
 * for it and returns the state as of the file's current end (the same object each time: copy what must not change).
 * A missing file gives the initial state.
 */
export function createLogFollower<S>(fold: LineFold<S>): (file: string) => Promise<S> {
  const followed = new Map<string, Followed<S>>();

  async function readOn(file: string, entry: Followed<S>): Promise<S> {
    let fd: number;
    try {
      fd = openSync(file, READ_FLAGS);
    } catch {
      return fold.initial();
    }
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) return fold.initial();
      const { ino, size } = stat;
      if (ino !== entry.ino || size < entry.offset) {
        Object.assign(entry, {
          ino,
          offset: 0,
          partial: Buffer.alloc(0),
          skipping: false,
          lineStart: 0,
          state: fold.initial(),
        });
      }
      const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, Math.max(0, size - entry.offset)));
      for (let chunk = 0; entry.offset < size; chunk++) {
        // A log that grew by more than a chunk is read over several turns of the loop.
        if (chunk > 0) await nextTurn();
        const bytesRead = readSync(fd, buffer, 0, Math.min(buffer.length, size - entry.offset), entry.offset);
        if (bytesRead === 0) break;
        entry.offset += bytesRead;
        const bytes = Buffer.concat([entry.partial, buffer.subarray(0, bytesRead)]);
        // The file offset of bytes[0]: the kept partial line's bytes come first.
        const base = entry.offset - bytesRead - entry.partial.length;
        let start = 0;
        for (let end = bytes.indexOf(10); end !== -1; start = end + 1, end = bytes.indexOf(10, start)) {
          if (!entry.skipping) fold.add(entry.state, bytes.toString("utf8", start, end), base + start);
          entry.skipping = false;
          entry.lineStart = base + end + 1;
        }
        entry.partial = Buffer.from(bytes.subarray(start));
        if (entry.partial.length > MAX_LINE_BYTES) {
          entry.partial = Buffer.alloc(0);
          if (!entry.skipping) fold.addLong?.(entry.state, entry.lineStart);
          entry.skipping = true;
        }
      }
      return entry.state;
    } finally {
      closeSync(fd);
    }
  }

  return (file) => {
    let entry = followed.get(file);
    if (!entry) {
      entry = {
        ino: -1,
        offset: 0,
        partial: Buffer.alloc(0),
        skipping: false,
        lineStart: 0,
        state: fold.initial(),
        reading: Promise.resolve(),
      };
      if (followed.size >= MAX_FOLLOWED) followed.delete(followed.keys().next().value!);
    } else followed.delete(file);
    // Most recently read last: the first key is the one to let go.
    followed.set(file, entry);
    const current = entry;
    const read = current.reading.then(() => readOn(file, current));
    current.reading = read.catch(() => undefined);
    return read;
  };
}

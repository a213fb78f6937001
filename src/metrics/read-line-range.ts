// Reads the lines of one byte range of a file in bounded pieces: a query of a big JSONL file (a step's samples) holds
// one line at a time, never the range or the file.
import { open } from "node:fs/promises";

const CHUNK_BYTES = 1024 * 1024;

export interface LineRange {
  start: number;
  /** Where to stop (the file's end when absent); a line that starts before it is read to its newline. */
  end?: number;
  /** Lines longer than this are passed over (`onLine` gets undefined for each), never held whole. */
  maxLineBytes: number;
}

/**
 * Calls `onLine` for each finished line starting in [start, end), in order (undefined for a line too long to read);
 * `onLine` returning false stops the read. A missing file reads as no lines.
 */
export async function readLineRange(
  file: string,
  range: LineRange,
  onLine: (line: string | undefined) => boolean | void,
): Promise<void> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch {
    return;
  }
  try {
    const { size } = await handle.stat();
    const stop = Math.min(range.end ?? size, size);
    const chunk = Buffer.alloc(CHUNK_BYTES);
    let offset = range.start;
    let lineStart = range.start;
    let pieces: Buffer[] = [];
    let held = 0;
    let skipping = false;
    while (offset < size && lineStart < stop) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK_BYTES, size - offset), offset);
      if (bytesRead === 0) break;
      let from = 0;
      for (let nl = chunk.indexOf(10, from); nl !== -1 && nl < bytesRead; nl = chunk.indexOf(10, from)) {
        const line = skipping ? undefined : Buffer.concat([...pieces, chunk.subarray(from, nl)]).toString("utf8");
        if (onLine(line) === false) return;
        pieces = [];
        held = 0;
        skipping = false;
        from = nl + 1;
        lineStart = offset + from;
        if (lineStart >= stop) return;
      }
      if (!skipping && from < bytesRead) {
        held += bytesRead - from;
        if (held > range.maxLineBytes) {
          skipping = true;
          pieces = [];
        } else pieces.push(Buffer.from(chunk.subarray(from, bytesRead)));
      }
      offset += bytesRead;
    }
    // A last line with no newline yet is still being written: it is read next time, whole.
  } finally {
    await handle.close();
  }
}

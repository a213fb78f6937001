// Reads the end of a log file without loading all of it (logs of long runs grow large).
import { open } from "node:fs/promises";

async function readTailBytes(file: string, maxBytes: number): Promise<string> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch {
    return "";
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const text = buffer.toString("utf8");
    // Drop a partial first line when we started mid-file.
    return start > 0 ? text.slice(text.indexOf("\n") + 1) : text;
  } finally {
    await handle.close();
  }
}

export async function readTailLines(file: string, lines: number, maxBytes = 256 * 1024): Promise<string[]> {
  const text = await readTailBytes(file, maxBytes);
  const all = text.split("\n");
  if (all.at(-1) === "") all.pop();
  return all.slice(-lines);
}

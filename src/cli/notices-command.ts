// rl-chatops notices [--follow]: prints the notices kept for console channels that no console showed.
import { closeSync, openSync, readSync, statSync } from "node:fs";
import type { Config } from "../config.ts";

/** How often --follow looks for new notices. */
const FOLLOW_POLL_MS = 250;

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Writes the bytes of `file` from `from` to `to` on stdout. */
function printRange(file: string, from: number, to: number): void {
  const fd = openSync(file, "r");
  try {
    const chunk = Buffer.alloc(64 * 1024);
    for (let at = from; at < to;) {
      const read = readSync(fd, chunk, 0, Math.min(chunk.length, to - at), at);
      if (read === 0) break;
      process.stdout.write(chunk.subarray(0, read));
      at += read;
    }
  } finally {
    closeSync(fd);
  }
}

/** Prints what is there; with `follow`, then what is added, until the process is interrupted (Ctrl-C). */
export async function runNotices(config: Config, follow: boolean): Promise<number> {
  const file = config.noticesPath;
  let printed = sizeOf(file);
  if (printed > 0) printRange(file, 0, printed);
  else if (!follow) process.stderr.write(`No notices yet (${file}).\n`);
  if (!follow) return 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, FOLLOW_POLL_MS));
    const size = sizeOf(file);
    // Moved aside or emptied: start again from its beginning.
    if (size < printed) printed = 0;
    if (size > printed) {
      printRange(file, printed, size);
      printed = size;
    }
  }
}

// Whether a write failed for want of space, and which of the bot's folders is on a full disk, for the notice that says so.
import { statfsSync } from "node:fs";
import { sep } from "node:path";
import { causeCodes } from "../retry-transient.ts";

/** Less than this left for us counts as full: a trainer's next log line or checkpoint would not fit. */
const FULL_BELOW_BYTES = 1024 * 1024;

const WRITE_REFUSED = /^(SQLITE_FULL|SQLITE_IOERR|ENOSPC|EDQUOT)/;

/** A write the disk refused (full, over quota, an I/O error): it may succeed later, once space is freed. */
export const isWriteRefused = (err: unknown): boolean => causeCodes(err).some((code) => WRITE_REFUSED.test(code));

export interface Folder {
  path: string;
  /** What it is to people: "the data folder", "the runs' log folder". */
  what: string;
}

const isFull = (folder: string): boolean => {
  try {
    const { bavail, bsize } = statfsSync(folder);
    return bavail * bsize < FULL_BELOW_BYTES;
  } catch {
    return false;
  }
};

/** One sentence naming the folders on a full disk ("No space was left on the disk of ..."), or undefined when none is. */
export function describeFullDisks(folders: readonly Folder[]): string | undefined {
  const full = folders.filter((folder) => isFull(folder.path));
  // A folder inside another full one is on that disk too (the logs under the data folder): naming the outer one says it.
  const outer = full.filter((f) => !full.some((other) => other !== f && f.path.startsWith(`${other.path}${sep}`)));
  if (outer.length === 0) return undefined;
  const named = outer.map((folder) => `${folder.what} ${folder.path}`).join(" and ");
  return `No space was left on the disk of ${named}.`;
}

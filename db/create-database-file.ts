// Creates the very first database atomically: built under a temporary name beside it, then linked into place, so a kill at any moment leaves no database or a whole one.
import { closeSync, existsSync, fsyncSync, linkSync, openSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { makePrivateFile } from "./private-file.ts";

/** The temporary name is the database's name, this mark and the building process's pid. */
const BUILDING = ".creating-";
const SIDE_FILES = ["", "-wal", "-shm", "-journal"];

export interface CreateDatabaseOptions {
  /** Called with the temporary file complete and closed, just before it takes the database's name (the crash-point
   * suite kills the process here). */
  beforePublish?: () => void;
}

/**
 * Build a new database at a temporary name with `prepare` (journal mode, schema), then give it `file`'s name. If
 * another process created `file` meanwhile, that one is kept and ours discarded.
 */
export function createDatabaseFile(
  file: string,
  prepare: (db: Database.Database) => void,
  options: CreateDatabaseOptions = {},
): void {
  const temp = `${file}${BUILDING}${process.pid}`;
  removeFiles(temp);
  try {
    // Born 0600, and with it the log and index SQLite makes beside it.
    makePrivateFile(temp);
    const db = new Database(temp);
    try {
      prepare(db);
    } finally {
      // The last connection's close checkpoints the write-ahead log into the file and deletes it: the file is whole.
      db.close();
    }
    syncFile(temp);
    options.beforePublish?.();
    publish(temp, file);
    syncFolder(path.dirname(file));
  } finally {
    removeFiles(temp);
  }
}

/** A link, unlike a rename, never replaces a database another process published in the meantime. */
function publish(temp: string, file: string): void {
  try {
    linkSync(temp, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    // A file system without hard links: the lease keeps a second bot from creating the same file at once.
    if (code === "EPERM" || code === "ENOTSUP" || code === "ENOSYS") renameSync(temp, file);
    else throw err;
  }
}

/** Remove what a start killed while building left beside `file` (never a build still going on in a live process). */
export function removeBuildLeftovers(file: string): void {
  const dir = path.dirname(file);
  if (!existsSync(dir)) return;
  const prefix = `${path.basename(file)}${BUILDING}`;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(\d+)(-wal|-shm|-journal)?$/.exec(name.slice(prefix.length));
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && !isAlive(pid)) rmSync(path.join(dir, name), { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function removeFiles(base: string): void {
  for (const side of SIDE_FILES) rmSync(`${base}${side}`, { force: true });
}

function syncFile(file: string): void {
  const fd = openSync(file, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Make the new name durable; a system that cannot open or sync a folder keeps it as its own caching decides. */
function syncFolder(dir: string): void {
  try {
    syncFile(dir);
  } catch {
    // Nothing to do: the file itself is synced, only its name may come later.
  }
}

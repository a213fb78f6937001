// One line for a database that cannot be used: the file, the cause in words, and what to do; never a stack trace.
import { RlError } from "../src/errors.ts";

const CAUSES: Record<string, string> = {
  SQLITE_READONLY: "it is read-only (check the file's and its folder's permissions, or the disk is mounted read-only)",
  SQLITE_CANTOPEN: "it cannot be opened (check that its folder exists and is writable)",
  SQLITE_FULL: "the disk is full (free some space, then start again)",
  SQLITE_IOERR: "the disk reported an input/output error (check the disk; restore a backup if the file is damaged)",
  SQLITE_CORRUPT:
    "it is damaged (move it aside and restore a backup: see docs/data-folder.md, The database file and backups)",
  SQLITE_NOTADB:
    "it is not an SQLite database (move it aside and restore a backup: see docs/data-folder.md, The database file and backups)",
  SQLITE_BUSY: "another process holds a lock on it (stop that process, then start again)",
  SQLITE_LOCKED: "another process holds a lock on it (stop that process, then start again)",
  SQLITE_PERM: "access to it is denied (check its permissions)",
  EACCES: "access to it or its folder is denied (check the permissions)",
  EROFS: "its folder is on a read-only file system",
  ENOSPC: "the disk is full (free some space, then start again)",
};

export function describeDbError(file: string, err: unknown): RlError {
  const code = typeof (err as { code?: unknown }).code === "string" ? (err as { code: string }).code : "";
  // SQLite's extended codes (SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED, ...) share their primary code's cause.
  const primary = Object.keys(CAUSES).find((c) => code === c || code.startsWith(`${c}_`));
  const cause = primary
    ? CAUSES[primary]!
    : `${err instanceof Error ? err.message : String(err)}${code ? ` (${code})` : ""}`;
  return new RlError("DATABASE", `The database ${file} cannot be used: ${cause}.`, {
    cause: err,
    details: { file, code },
  });
}

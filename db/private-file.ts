// The bot's own records are its owner's alone: the data folder is made 0700, the database and its backups 0600, each
// before SQLite opens it (SQLite gives a database's -wal, -shm and -journal the database's own mode, so they are born
// private too). What exists already is left as it is: the bot warns of a wider mode at start, never chmod-s it.
import { closeSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** Creates `file` empty with mode 0600 (SQLite takes an empty file for an empty database); an existing one is kept. */
export function makePrivateFile(file: string): void {
  try {
    closeSync(openSync(file, "wx", PRIVATE_FILE_MODE));
  } catch (err) {
    if (codeOf(err) !== "EEXIST") throw err;
  }
}

/** Creates `dir` with mode 0700 (its missing parents as mkdir -p would); an existing one is kept. */
export function makePrivateFolder(dir: string): void {
  mkdirSync(path.dirname(dir), { recursive: true });
  try {
    mkdirSync(dir, { mode: PRIVATE_FOLDER_MODE });
  } catch (err) {
    if (codeOf(err) !== "EEXIST") throw err;
  }
}

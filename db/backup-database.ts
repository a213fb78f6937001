// A consistent copy of the live database (SQLite's online backup), written beside the target and renamed into place.
import { existsSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { RlError } from "../src/errors.ts";
import type { Db } from "./open-database.ts";
import { makePrivateFile, makePrivateFolder } from "./private-file.ts";

/** Copy `db` to `file`, which must not exist yet: an existing file is someone's data. Resolves with the file. */
export async function backupDatabase(db: Db, file: string): Promise<string> {
  const target = path.resolve(file);
  if (existsSync(target))
    throw new RlError("CONFLICT", `${target} already exists; name a new file, or move that one aside first.`);
  makePrivateFolder(path.dirname(target));
  // A half-written copy must never look like a backup: write a temporary file, then rename it.
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  try {
    // A copy of every record: its owner's alone (0600), like the database.
    makePrivateFile(partial);
    await db.backup(partial);
    renameSync(partial, target);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  return target;
}

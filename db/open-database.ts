// Opens the SQLite file (WAL, secure delete), creating the first one whole, and brings its schema up to date; an existing file that is not a database is never touched.
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { isRlError, RlError } from "../src/errors.ts";
import { createDatabaseFile, removeBuildLeftovers } from "./create-database-file.ts";
import { describeDbError } from "./describe-db-error.ts";
import { MIGRATIONS, type Migration } from "./migrations.ts";
import { makePrivateFolder } from "./private-file.ts";

export type Db = Database.Database;

const HEADER = Buffer.from("SQLite format 3\0", "latin1");
const WHAT_TO_DO =
  "It was left as it is. Move it aside (or restore a backup: see docs/data-folder.md, The database file and backups), then start again.";

/** A write-ahead log or rollback journal beside the file: possibly the last copy of its data. */
function journalBeside(file: string): { name: string; size: number } | undefined {
  for (const name of [`${file}-wal`, `${file}-journal`]) {
    if (existsSync(name)) return { name, size: statSync(name).size };
  }
  return undefined;
}

function keepBoth(what: string, file: string, journal: { name: string; size: number }): RlError {
  const backups = path.join(path.dirname(file), "backups");
  return new RlError(
    "DATABASE",
    `${what} ${journal.name} beside it holds ${journal.size} bytes (possibly the last copy of its data). Both were left as they are: restore a backup from ${backups} (see docs/data-folder.md, The database file and backups) or move both aside, then start again.`,
    { details: { file, journal: journal.name } },
  );
}

function deletedInUse(file: string): RlError {
  const backups = path.join(path.dirname(file), "backups");
  return new RlError(
    "DATABASE",
    `There is no database ${file} but its shared-memory index ${file}-shm is beside it: the database was deleted or moved while a program had it open, and a new, empty one would hide that. Move ${file}-shm and any ${file}-wal aside and restore a backup from ${backups} (see docs/data-folder.md, The database file and backups), or move the data folder aside, then start again.`,
    { details: { file } },
  );
}

/** An existing file must already be a database: an empty or foreign file is data someone may need, never re-created. */
function checkExistingFile(file: string): void {
  const journal = journalBeside(file);
  if (!existsSync(file)) {
    // SQLite would replay a log with no database of its own onto a new one: it may be all that is left.
    if (journal && journal.size > 0) throw keepBoth(`There is no database ${file} but`, file, journal);
    // Left by a connection that never closed its file normally: it was deleted or moved while in use.
    if (existsSync(`${file}-shm`)) throw deletedInUse(file);
    return;
  }
  const { size } = statSync(file);
  // Opening would delete the log beside an empty file: the last copy of the data.
  if (size === 0 && journal && journal.size > 0)
    throw keepBoth(`The database ${file} is empty (0 bytes) but`, file, journal);
  if (size === 0)
    throw new RlError(
      "DATABASE",
      `The database ${file} is empty (0 bytes): a failed copy or a full disk? ${WHAT_TO_DO}`,
      { details: { file } },
    );
  const head = Buffer.alloc(HEADER.length);
  const fd = openSync(file, "r");
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!head.equals(HEADER))
    throw new RlError("DATABASE", `The database ${file} is not an SQLite database. ${WHAT_TO_DO}`, {
      details: { file },
    });
}

export interface OpenDatabaseOptions {
  /** Called when a new database is built under its temporary name, just before it takes its own (a crash point). */
  beforePublish?: () => void;
  /** Called with every statement the connection runs, its parameters filled in (the query-plan test reads them). */
  traceSql?: (sql: string) => void;
}

export function openDatabase(
  file: string,
  migrations: readonly Migration[] = MIGRATIONS,
  options: OpenDatabaseOptions = {},
): Db {
  let db: Db | undefined;
  try {
    if (file !== ":memory:") {
      checkExistingFile(file);
      removeBuildLeftovers(file);
      if (!existsSync(file)) {
        makePrivateFolder(path.dirname(file));
        // Built whole under another name first: a kill during the very first start never leaves a 0-byte database.
        createDatabaseFile(
          file,
          (fresh) => {
            fresh.pragma("journal_mode = WAL");
            migrate(fresh, migrations);
          },
          options,
        );
      }
    }
    db = new Database(file, {
      fileMustExist: file !== ":memory:",
      ...(options.traceSql ? { verbose: (sql: unknown) => options.traceSql!(String(sql)) } : {}),
    });
    db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    db.pragma("synchronous = NORMAL");
    // Deleted rows (a reset config, a pruned prompt) are overwritten, not left readable in free pages.
    db.pragma("secure_delete = ON");
    // Reading the schema finds a damaged file now, with the file's name, not at the first query.
    db.prepare("SELECT count(*) FROM sqlite_master").get();
    migrate(db, migrations);
    return db;
  } catch (err) {
    db?.close();
    throw isRlError(err) ? err : describeDbError(file, err);
  }
}

/** Apply every migration newer than the database's user_version; returns the versions applied. */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const applied: number[] = [];
  const current = db.pragma("user_version", { simple: true }) as number;
  const latest = Math.max(0, ...migrations.map((m) => m.version));
  if (current > latest) {
    throw new RlError(
      "DATABASE",
      `The database is at schema version ${current}, newer than this program (${latest}). Upgrade rl-chatops.`,
    );
  }
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
    applied.push(migration.version);
  }
  return applied;
}

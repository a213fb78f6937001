// Opens the SQLite file (WAL, secure delete) and brings its schema up to date; an existing file that is not a database is never touched.
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { isRlError, RlError } from "../src/errors.ts";
import { describeDbError } from "./describe-db-error.ts";
import { MIGRATIONS, type Migration } from "./migrations.ts";

export type Db = Database.Database;

const HEADER = Buffer.from("SQLite format 3\0", "latin1");
const WHAT_TO_DO = "It was left as it is. Move it aside (or restore a backup: see README, Backups), then start again.";

/** An existing file must already be a database: an empty or foreign file is data someone may need, never re-created. */
function checkExistingFile(file: string): void {
  if (!existsSync(file)) return;
  const { size } = statSync(file);
  // A database whose first pages are still in its write-ahead log is empty on disk but whole.
  const wal = `${file}-wal`;
  if (size === 0 && existsSync(wal) && statSync(wal).size > 0) return;
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

export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  let db: Db | undefined;
  try {
    if (file !== ":memory:") {
      checkExistingFile(file);
      mkdirSync(path.dirname(file), { recursive: true });
    }
    db = new Database(file);
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

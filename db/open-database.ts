// Opens the SQLite file (WAL) and brings its schema up to date, once, inside a transaction per migration.
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { MIGRATIONS, type Migration } from "./migrations.ts";

export type Db = Database.Database;

export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  db.pragma("synchronous = NORMAL");
  migrate(db, migrations);
  return db;
}

/** Apply every migration newer than the database's user_version; returns the versions applied. */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const applied: number[] = [];
  const current = db.pragma("user_version", { simple: true }) as number;
  const latest = Math.max(0, ...migrations.map((m) => m.version));
  if (current > latest) {
    throw new Error(`The database is at schema version ${current}, newer than this program (${latest}). Upgrade rl-chatops.`);
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

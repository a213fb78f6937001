// The history bench's database: a year of past runs (test/helpers/run-history.ts) in a real SQLite file, made once per
// size and schema and kept in the temp folder's rl-bench-cache (its making takes tens of seconds), copied for each use.
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MIGRATIONS } from "../db/migrations.ts";
import { openDatabase } from "../db/open-database.ts";
import { fillHistory, type HistoryShape } from "../test/helpers/run-history.ts";

/** Bumped when fillHistory makes different rows. */
const GENERATION = 1;

export interface HistoryFile {
  file: string;
  bytes: number;
  /** Seconds it took to make it now; undefined when it came from the cache. */
  madeInSeconds?: number;
}

/** The cached database of `shape`, made now when there is none for this schema. */
export function historyDatabase(shape: HistoryShape, endAt: number): HistoryFile {
  const schema = Math.max(...MIGRATIONS.map((m) => m.version));
  const dir = path.join(tmpdir(), "rl-bench-cache");
  const file = path.join(
    dir,
    `history-${shape.runs}r-${shape.channels}c-${shape.live}l-${shape.people}p-schema${schema}-g${GENERATION}.db`,
  );
  if (existsSync(file)) return { file, bytes: statSync(file).size };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const t0 = performance.now();
  const part = `${file}.part-${process.pid}`;
  rmSync(part, { force: true });
  const db = openDatabase(part);
  try {
    fillHistory(db, shape, endAt, path.join(dir, "logs"));
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
  // Taken whole or not at all: an interrupted making leaves only its .part file behind.
  renameSync(part, file);
  for (const extra of ["-wal", "-shm"]) rmSync(`${part}${extra}`, { force: true });
  return { file, bytes: statSync(file).size, madeInSeconds: (performance.now() - t0) / 1000 };
}

/** A copy of the cached file as the data folder's database, so that what the measurement writes stays there. */
export function copyHistoryInto(history: HistoryFile, databasePath: string): void {
  mkdirSync(path.dirname(databasePath), { recursive: true, mode: 0o700 });
  copyFileSync(history.file, databasePath);
  chmodSync(databasePath, 0o600);
}

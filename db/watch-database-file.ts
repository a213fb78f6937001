// Watches an open database's file and write-ahead log: deleted or replaced under the connection (an operator restoring a backup), they stop every statement, so nothing is lost into the old file or replayed onto the new one.
import { renameSync, statSync } from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { RlError } from "../src/errors.ts";
import type { Db } from "./open-database.ts";

/** A file's identity: the same name on another device or inode is another file. */
interface Identity {
  dev: number;
  ino: number;
}

export interface DatabaseFileWatch {
  /** Compare the file and its -wal with what was opened (two stats); on a change stop the connection and say why. */
  check(): RlError | undefined;
  /** Why the connection stopped, once it has. */
  readonly fault: RlError | undefined;
  /** Called once, when the connection stops. */
  onFault(listener: (fault: RlError) => void): void;
  /** Run `read` with reads let through even after the fault (what the connection still sees; writes stay refused). */
  readStill<T>(read: () => T): T;
}

function identify(file: string): Identity | undefined {
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat ? { dev: stat.dev, ino: stat.ino } : undefined;
}

const isSame = (a: Identity | undefined, b: Identity | undefined): boolean =>
  a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;

/**
 * Watch `db`, opened on `file`: from now on each write (a statement outside a transaction, or a transaction) first
 * checks the file (one stat: the -wal is left to check(), on the bot's timer), and once it has changed every statement
 * throws the fault. SQLite itself closes a connection whose file has moved without checkpointing, and leaves its -wal
 * and -shm: beside a deleted file they make the next start refuse (the data folder's last trace of the data), beside a
 * replaced one they would be replayed onto it at the next open, so they are moved aside.
 */
export function watchDatabaseFile(db: Db, file: string): DatabaseFileWatch {
  const wal = `${file}-wal`;
  const opened = { file: identify(file), wal: identify(wal), shm: identify(`${file}-shm`) };
  const listeners: Array<(fault: RlError) => void> = [];
  let fault: RlError | undefined;

  const stop = (what: string, change: "deleted" | "replaced" | "log"): RlError => {
    const kept = change === "replaced" ? moveLogsAside(file, opened) : [];
    const names = (side: "from" | "to") => kept.map((k) => path.basename(k[side])).join(" and ");
    const keptNote = kept.length
      ? ` (its own ${names("from")}, which would have been replayed onto the new file, ${kept.length === 1 ? "is" : "are"} kept as ${names("to")})`
      : "";
    const toDo = {
      deleted: `Move its -wal and -shm (still beside it) aside and restore a backup (see docs/data-folder.md, The database file and backups), or move the data folder aside, and start the bot again.`,
      replaced: `Start the bot again to use the new file.`,
      log: `Start the bot again: what the log held was saved into ${file} as the bot closed it.`,
    }[change];
    fault = new RlError(
      "DATABASE",
      `${what} while the bot ran; the bot stopped so as not to lose or overwrite data${keptNote}. ${toDo}`,
      { details: { file } },
    );
    for (const listener of listeners.splice(0)) listener(fault);
    return fault;
  };

  /** One stat: what each write pays. */
  const checkFile = (): RlError | undefined => {
    if (fault) return fault;
    const now = identify(file);
    if (!now) return stop(`The database file ${file} was deleted`, "deleted");
    if (!isSame(now, opened.file)) return stop(`The database file ${file} was replaced`, "replaced");
    return undefined;
  };
  const check = (): RlError | undefined => {
    const found = checkFile();
    if (found || !opened.wal || isSame(identify(wal), opened.wal)) return found;
    return stop(`The database's write-ahead log ${wal} was deleted or replaced`, "log");
  };

  const beforeWrite = (): void => {
    const found = checkFile();
    if (found) throw found;
  };
  let readingStill = false;
  const beforeRead = (): void => {
    if (fault && !readingStill) throw fault;
  };

  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => guardStatement(prepare(source), db, beforeRead, beforeWrite)) as Db["prepare"];
  const exec = db.exec.bind(db);
  db.exec = (source: string) => {
    if (!db.inTransaction) beforeWrite();
    return exec(source);
  };
  const transaction = db.transaction.bind(db);
  // Checked once a batch, inside the transaction so its statements skip the check.
  db.transaction = ((fn: (...args: unknown[]) => unknown) =>
    transaction(function (this: unknown, ...args: unknown[]) {
      beforeWrite();
      return fn.apply(this, args);
    })) as Db["transaction"];

  return {
    check,
    get fault() {
      return fault;
    },
    onFault(listener) {
      if (fault) listener(fault);
      else listeners.push(listener);
    },
    readStill(read) {
      readingStill = true;
      try {
        return read();
      } finally {
        readingStill = false;
      }
    },
  };
}

function guardStatement(
  stmt: Database.Statement,
  db: Db,
  beforeRead: () => void,
  beforeWrite: () => void,
): Database.Statement {
  const guard = stmt.readonly ? beforeRead : () => (db.inTransaction ? beforeRead() : beforeWrite());
  for (const method of ["run", "get", "all", "iterate"] as const) {
    const original = stmt[method].bind(stmt) as (...args: unknown[]) => unknown;
    Object.defineProperty(stmt, method, {
      value: (...args: unknown[]) => {
        guard();
        return original(...args);
      },
    });
  }
  return stmt;
}

/** The connection's own -wal and -shm (the same inodes it opened), renamed away from a file that replaced its own. */
function moveLogsAside(
  file: string,
  opened: { wal: Identity | undefined; shm: Identity | undefined },
): Array<{ from: string; to: string }> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const moved: Array<{ from: string; to: string }> = [];
  for (const [side, identity] of [
    ["-wal", opened.wal],
    ["-shm", opened.shm],
  ] as const) {
    const from = `${file}${side}`;
    if (!isSame(identify(from), identity)) continue;
    const to = `${from}.replaced-${stamp}`;
    try {
      renameSync(from, to);
      moved.push({ from, to });
    } catch {
      // Not movable (a read-only folder): the message then names no kept file, and the next start sees the log.
    }
  }
  return moved;
}

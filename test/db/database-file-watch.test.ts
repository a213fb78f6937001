// The watch on an open database's file: each write looks at it first, and once it has changed no statement runs.
import { existsSync, readdirSync, renameSync, rmSync, copyFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../db/open-database.ts";
import { watchDatabaseFile } from "../../db/watch-database-file.ts";
import type { RlError } from "../../src/errors.ts";
import { tempDir } from "../helpers/test-services.ts";

function openWatched() {
  const file = path.join(tempDir("rl-watch-"), "rl-chatops.db");
  const db = openDatabase(file);
  const watch = watchDatabaseFile(db, file);
  const faults: RlError[] = [];
  watch.onFault((fault) => faults.push(fault));
  const insert = db.prepare(
    "INSERT INTO channels (platform, workspace, channel, environment, updated_at) VALUES (?, 'w', 'c', 'e', 0)",
  );
  const count = () => (db.prepare("SELECT count(*) AS n FROM channels").get() as { n: number }).n;
  return { file, db, watch, faults, insert, count };
}

describe("watchDatabaseFile", () => {
  it("lets writes and reads through while the file is the one opened", () => {
    const { db, watch, faults, insert, count } = openWatched();
    try {
      insert.run("a");
      db.transaction(() => insert.run("b"))();
      db.exec("UPDATE channels SET updated_at = 1");
      expect(count()).toBe(2);
      expect(watch.check()).toBeUndefined();
      expect(faults).toEqual([]);
    } finally {
      db.close();
    }
  });

  it("a write after the file was deleted is refused before it runs, and every statement after it", () => {
    const { file, db, watch, faults, insert, count } = openWatched();
    try {
      insert.run("a");
      rmSync(file);
      expect(() => insert.run("b")).toThrow(`The database file ${file} was deleted while the bot ran`);
      expect(() => count()).toThrow("was deleted");
      expect(() => db.transaction(() => insert.run("c"))()).toThrow("was deleted");
      expect(() => db.exec("DELETE FROM channels")).toThrow("was deleted");
      expect(faults).toHaveLength(1);
      expect(watch.fault).toBe(faults[0]);
      expect(existsSync(file)).toBe(false);
    } finally {
      db.close();
    }
    // SQLite leaves the log of a file gone from under it: the next open refuses instead of starting empty.
    expect(() => openDatabase(file)).toThrow(`There is no database ${file} but`);
    expect(existsSync(file)).toBe(false);
  });

  it("a replaced file: its own -wal and -shm are moved aside and the new file is left byte for byte", () => {
    const { file, db, faults, insert, watch } = openWatched();
    const older = `${file}.older`;
    const restored = new Database(older);
    restored.close();
    try {
      insert.run("a");
      copyFileSync(older, `${file}.new`);
      renameSync(`${file}.new`, file);
      expect(watch.check()?.message).toContain(`The database file ${file} was replaced`);
      expect(() => insert.run("b")).toThrow("was replaced");
      expect(faults).toHaveLength(1);
    } finally {
      db.close();
    }
    const names = readdirSync(path.dirname(file));
    expect(names.filter((n) => /^rl-chatops\.db-(wal|shm)\.replaced-/.test(n))).toHaveLength(2);
    expect(existsSync(`${file}-wal`)).toBe(false);
    const check = new Database(file, { fileMustExist: true });
    try {
      expect(check.prepare("SELECT count(*) AS n FROM sqlite_master").get()).toEqual({ n: 0 });
    } finally {
      check.close();
    }
  });

  it("a deleted -wal, found by the timer's check, stops the connection, whose close still saves what it held into its own file", () => {
    const { file, db, watch, faults, insert } = openWatched();
    insert.run("a");
    rmSync(`${file}-wal`);
    expect(watch.check()?.message).toContain(`The database's write-ahead log ${file}-wal was deleted or replaced`);
    expect(() => insert.run("b")).toThrow("write-ahead log");
    expect(faults).toHaveLength(1);
    db.close();
    const check = openDatabase(file);
    try {
      expect(check.prepare("SELECT environment FROM channels").all()).toEqual([{ environment: "e" }]);
    } finally {
      check.close();
    }
  });
});

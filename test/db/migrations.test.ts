import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createChannelsRepo } from "../../db/channels.ts";
import { createRunsRepo } from "../../db/runs.ts";
import { MIGRATIONS, type Migration } from "../../db/migrations.ts";
import { migrate, openDatabase } from "../../db/open-database.ts";

const dbFile = () => path.join(mkdtempSync(path.join(tmpdir(), "rl-db-")), "state.db");
const key = { platform: "slack", workspace: "T1", channel: "C1" };

describe("migrations", () => {
  it("bring a new database to the latest version in WAL mode", () => {
    const db = openDatabase(dbFile());
    expect(db.pragma("user_version", { simple: true })).toBe(Math.max(...MIGRATIONS.map((m) => m.version)));
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("apply only the new ones to an existing database and keep its data", () => {
    const file = dbFile();
    const first = openDatabase(file, MIGRATIONS.slice(0, 1));
    createChannelsRepo(first).selectEnvironment(key, "arithmetic");
    first.close();

    const extra: Migration = { version: 999, name: "test column", sql: "ALTER TABLE channels ADD COLUMN note TEXT;" };
    const db = new Database(file);
    expect(migrate(db, [...MIGRATIONS, extra])).toEqual([...MIGRATIONS.slice(1).map((m) => m.version), 999]);
    expect(migrate(db, [...MIGRATIONS, extra])).toEqual([]);
    expect(createChannelsRepo(db).selectedEnvironment(key)).toBe("arithmetic");
    db.close();
  });

  it("read every run made before there were training stacks as an atropos-tinker run, its data kept", () => {
    const file = dbFile();
    const before = openDatabase(
      file,
      MIGRATIONS.filter((m) => m.version < 9),
    );
    // A run as the previous version wrote it (the repository of today writes the new column).
    before
      .prepare(
        `INSERT INTO runs (id, platform, workspace, channel, environment, config_json, status, created_by, created_at, updated_at, backend)
         VALUES ('old00001', 'slack', 'T1', 'C1', 'arithmetic', '{"lr":0.1}', 'completed', 'U1', 1, 1, 'local')`,
      )
      .run();
    expect(before.prepare("SELECT * FROM runs").get()).not.toHaveProperty("stack");
    before.close();

    const db = openDatabase(file);
    const row = createRunsRepo(db).get("old00001")!;
    expect(row).toMatchObject({
      stack: "atropos-tinker",
      environment: "arithmetic",
      config: { lr: 0.1 },
      status: "completed",
    });
    createRunsRepo(db).insert({
      id: "new00001",
      channel: key,
      environment: "math_rl.train",
      config: {},
      status: "queued",
      createdBy: "U1",
      stack: "tinker-cookbook",
    });
    expect(createRunsRepo(db).get("new00001")!.stack).toBe("tinker-cookbook");
    db.close();
  });

  it("roll back a failing migration whole", () => {
    const file = dbFile();
    openDatabase(file).close();
    const bad: Migration = {
      version: 999,
      name: "bad",
      sql: "CREATE TABLE t (x INTEGER); INSERT INTO nope VALUES (1);",
    };
    const db = new Database(file);
    expect(() => migrate(db, [...MIGRATIONS, bad])).toThrow();
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 't'").get()).toBeUndefined();
    expect(db.pragma("user_version", { simple: true })).toBe(Math.max(...MIGRATIONS.map((m) => m.version)));
    db.close();
  });

  it("refuse a database newer than the program", () => {
    const file = dbFile();
    const db = new Database(file);
    db.pragma("user_version = 5000");
    expect(() => migrate(db)).toThrow(/newer than this program/);
    db.close();
  });
});

describe("channels repository", () => {
  it("keeps channels and environments apart", () => {
    const db = openDatabase(dbFile());
    const repo = createChannelsRepo(db);
    const other = { ...key, channel: "C2" };
    repo.selectEnvironment(key, "arithmetic");
    repo.setConfigValue(key, "arithmetic", "group_size", 8);
    repo.setConfigValue(key, "parity", "group_size", 4);
    expect(repo.selectedEnvironment(other)).toBeUndefined();
    expect(repo.configValues(other, "arithmetic")).toEqual({});
    expect(repo.configValues(key, "arithmetic")).toEqual({ group_size: 8 });
    expect(repo.configValues(key, "parity")).toEqual({ group_size: 4 });
    repo.setConfigValue(key, "arithmetic", "total_steps", 9);
    expect(repo.resetConfig(key, "arithmetic", "group_size")).toEqual({ total_steps: 9 });
    expect(repo.resetConfig(key, "arithmetic")).toEqual({});
    db.close();
  });
});

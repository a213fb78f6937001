// The database file as data: an empty, foreign, damaged or locked file is refused with one line and left exactly as it was.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { backUpToday } from "../../db/daily-backups.ts";
import { MIGRATIONS } from "../../db/migrations.ts";
import { openDatabase } from "../../db/open-database.ts";
import { createChannelsRepo } from "../../db/channels.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";
import { trackProcess } from "../helpers/children.ts";

function dataFolder(): { cwd: string; file: string } {
  const cwd = tempDir("rl-dbfile-");
  mkdirSync(path.join(cwd, "data"));
  return { cwd, file: path.join(cwd, "data", "rl-chatops.db") };
}

/** One line on stderr naming the file, exit 1, no stack trace. */
function expectOneLine(result: { code: number | undefined; stderr: string }, file: string, cause: RegExp): void {
  expect(result.code).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(file);
  expect(lines[0]).toMatch(cause);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe("the database file", () => {
  it("refuses an empty (0-byte) file, for the bot and for exec, and leaves it empty", async () => {
    const { cwd, file } = dataFolder();
    writeFileSync(file, "");
    expectOneLine(await runCli([], { cwd, input: "/rl envs\n" }), file, /empty \(0 bytes\).*Move it aside/);
    expectOneLine(await runCli(["exec", "/rl envs"], { cwd }), file, /empty/);
    expect(readFileSync(file).length).toBe(0);
    // Nothing was made beside it: no log, no second database.
    expect(readdirSync(path.join(cwd, "data")).filter((name) => name.startsWith("rl-chatops"))).toEqual([
      "rl-chatops.db",
    ]);
  });

  it("refuses an empty file with a write-ahead log or journal beside it, and keeps both byte for byte", async () => {
    for (const side of ["-wal", "-journal"]) {
      const { cwd, file } = dataFolder();
      // A real log: a database's last writes, not yet checkpointed into its (then lost) file.
      const db = new Database(file);
      db.pragma("journal_mode = WAL");
      db.pragma("wal_autocheckpoint = 0");
      db.exec("CREATE TABLE kept (x); INSERT INTO kept VALUES ('the only copy')");
      const log = readFileSync(`${file}-wal`);
      db.close();
      writeFileSync(file, "");
      rmSync(`${file}-wal`, { force: true });
      writeFileSync(`${file}${side}`, log);
      const expected = new RegExp(
        `empty \\(0 bytes\\) but .*rl-chatops\\.db${side} beside it holds ${log.length} bytes.*move both aside`,
      );
      expectOneLine(await runCli([], { cwd, input: "/rl envs\n" }), file, expected);
      expectOneLine(await runCli(["exec", "/rl envs"], { cwd }), file, expected);
      expect(readFileSync(file).length).toBe(0);
      expect(readFileSync(`${file}${side}`).equals(log)).toBe(true);
    }
  });

  it("refuses to create a database where only its write-ahead log is left, and keeps the log", async () => {
    const { cwd, file } = dataFolder();
    writeFileSync(`${file}-wal`, "frames of a database that was deleted");
    expectOneLine(await runCli(["exec", "/rl envs"], { cwd }), file, /no database .* beside it holds 37 bytes/);
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(`${file}-wal`, "utf8")).toBe("frames of a database that was deleted");
  });

  it("creates the first database whole, and removes what a killed first start was building", () => {
    const { cwd, file } = dataFolder();
    // No process has this pid (above the kernel's maximum): the start that was building it is gone.
    const leftover = `${file}.creating-99999999`;
    writeFileSync(leftover, "half a database");
    writeFileSync(`${leftover}-wal`, "its log");
    const db = openDatabase(file);
    expect(db.pragma("user_version", { simple: true })).toBe(Math.max(...MIGRATIONS.map((m) => m.version)));
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
    expect(readdirSync(path.join(cwd, "data")).filter((name) => name.includes(".creating-"))).toEqual([]);
  });

  it("refuses a file that is not a database and leaves its bytes as they were", async () => {
    const { cwd, file } = dataFolder();
    writeFileSync(file, "channel,environment\nlab,arithmetic\n");
    expectOneLine(await runCli(["exec", "/rl envs"], { cwd }), file, /not an SQLite database/);
    expect(readFileSync(file, "utf8")).toBe("channel,environment\nlab,arithmetic\n");
  });

  it("refuses a damaged database, naming the file and what to do", async () => {
    const { cwd, file } = dataFolder();
    const db = openDatabase(file);
    createChannelsRepo(db).selectEnvironment({ platform: "console", workspace: "local", channel: "lab" }, "arithmetic");
    db.close();
    const bytes = readFileSync(file);
    for (let i = 100; i < bytes.length; i++) bytes[i] = (i * 7) & 255;
    writeFileSync(file, bytes);
    expectOneLine(await runCli(["exec", "/rl envs"], { cwd }), file, /damaged.*restore a backup/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it("says another process holds a lock on it", async () => {
    const { cwd, file } = dataFolder();
    openDatabase(file).close();
    // Another program holding the file exclusively (not a second bot: the lease refuses that one earlier).
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const D = require(${JSON.stringify(createRequire(import.meta.url).resolve("better-sqlite3"))}); const db = new D(${JSON.stringify(file)}); db.pragma("locking_mode = EXCLUSIVE"); db.exec("BEGIN EXCLUSIVE; CREATE TABLE hold (x); COMMIT;"); console.log("held"); setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"], detached: true },
    );
    trackProcess(holder);
    try {
      await new Promise<void>((resolve) => holder.stdout!.once("data", () => resolve()));
      expectOneLine(await runCli(["exec", "/rl envs"], { cwd }), file, /another process holds a lock/);
    } finally {
      holder.kill("SIGKILL");
    }
  });

  it("overwrites deleted rows (secure delete): a reset value is not left readable in the file", () => {
    const { file } = dataFolder();
    const db = openDatabase(file);
    const channels = createChannelsRepo(db);
    const lab = { platform: "console", workspace: "local", channel: "lab" };
    const marker = "run-name-that-must-vanish-4f1c";
    for (let i = 0; i < 20; i++)
      channels.setConfigValue({ ...lab, channel: `other${i}` }, "arithmetic", "group_size", i + 2);
    channels.selectEnvironment(lab, "arithmetic");
    // A long value spills into overflow pages; a reset frees them, and without secure delete they keep their bytes.
    channels.setConfigValue(lab, "arithmetic", "custom_thinking_prompt", marker.repeat(300));
    channels.resetConfig(lab, "arithmetic");
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    expect(readFileSync(file).includes(Buffer.from(marker))).toBe(false);
  });
});

describe("backups", () => {
  it("rl-chatops backup writes a consistent copy that opens with the same data, and never overwrites a file", async () => {
    const cwd = tempDir("rl-backup-");
    expect((await runCli(["exec", "/rl select arithmetic", "--channel", "lab"], { cwd })).code).toBe(0);
    const target = path.join(cwd, "copy.db");
    const made = await runCli(["backup", target], { cwd });
    expect(made.code).toBe(0);
    expect(made.stdout).toContain(target);
    const copy = openDatabase(target);
    expect(
      createChannelsRepo(copy).selectedEnvironment({ platform: "console", workspace: "local", channel: "lab" }),
    ).toBe("arithmetic");
    copy.close();

    writeFileSync(path.join(cwd, "taken.db"), "someone's file");
    const refused = await runCli(["backup", path.join(cwd, "taken.db")], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already exists/);
    expect(readFileSync(path.join(cwd, "taken.db"), "utf8")).toBe("someone's file");
  });

  it("refuses to back up a database that does not exist, and creates none", async () => {
    const cwd = tempDir("rl-backup-");
    const result = await runCli(["backup"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no database/);
    expect(existsSync(path.join(cwd, "data", "rl-chatops.db"))).toBe(false);
  });

  it("keeps one backup a day, the newest 7", async () => {
    const { file } = dataFolder();
    const db = openDatabase(file);
    const dir = path.join(path.dirname(file), "backups");
    const day = 24 * 3600_000;
    let now = Date.parse("2026-12-01T10:00:00Z");
    expect(await backUpToday({ db, dir, now: () => now })).toBe(path.join(dir, "rl-chatops-2026-12-01.db"));
    expect(await backUpToday({ db, dir, now: () => now + 3600_000 })).toBeUndefined();
    for (let i = 1; i <= 9; i++) {
      now += day;
      await backUpToday({ db, dir, now: () => now });
    }
    db.close();
    const names = readdirSync(dir).sort();
    expect(names).toHaveLength(7);
    expect(names[0]).toBe("rl-chatops-2026-12-04.db");
    expect(names.at(-1)).toBe("rl-chatops-2026-12-10.db");
  });
});

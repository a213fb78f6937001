// The bot's records are its owner's alone: a data folder made by exec (and its background supervisor) is 0700, the
// database with its -wal and -shm, the lock and the daily backup are 0600 under the usual umask 022; files someone
// widened are named at start with the chmod to type, and left as they are.
import { chmodSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readLeaseHolder } from "../../src/lease/lease-holder.ts";
import { botsPerTest, waitFor } from "../helpers/bot-process.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const { startBot, started } = botsPerTest();
const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);

describe("the data folder's file modes", () => {
  it("makes the folder 0700 and the database, its -wal/-shm and backups 0600; warns of wider ones, never chmod-s", async () => {
    const cwd = tempDir();
    const dataDir = path.join(cwd, "data");
    const db = path.join(dataDir, "rl-chatops.db");
    const umask = process.umask(0o022);
    try {
      // exec is the first to use the folder: it starts the background supervisor, which makes the database.
      expect((await runCli(["exec", "/rl runs"], { cwd })).code).toBe(0);
      await waitFor(() => readLeaseHolder(dataDir) === undefined, "the background supervisor to let go of the folder");
    } finally {
      process.umask(umask);
    }
    const backups = path.join(dataDir, "backups");
    const backup = path.join(
      backups,
      readdirSync(backups).find((n) => n.endsWith(".db"))!,
    );
    expect([dataDir, backups].map(modeOf)).toEqual(["700", "700"]);
    expect([db, path.join(dataDir, "bot.lock"), backup].map(modeOf)).toEqual(["600", "600", "600"]);

    // A bot holds the database open: its log and index are there, born with the database's mode.
    const bot = await startBot(cwd, { RL_LOG_LEVEL: "warn" });
    expect([`${db}-wal`, `${db}-shm`].map(modeOf)).toEqual(["600", "600"]);
    expect(bot.stderr()).not.toContain("chmod");
    bot.kill("SIGTERM");
    await bot.ended;
    started.splice(0);

    chmodSync(dataDir, 0o755);
    chmodSync(db, 0o644);
    chmodSync(backup, 0o640);
    const again = await startBot(cwd, { RL_LOG_LEVEL: "warn" });
    const warned = again.stderr();
    expect(warned).toContain(`(mode 0755); it holds the bot's records, so make it private with: chmod 700 ${dataDir}`);
    expect(warned).toContain(`${db}: other users of this machine can reach the file (mode 0644)`);
    expect(warned).toContain(`chmod 600 ${db}"`);
    expect(warned).toContain(`chmod 600 ${backup}"`);
    expect([dataDir, db, backup].map(modeOf)).toEqual(["755", "644", "640"]);
  });
});

// The real bot with its database file deleted or replaced (a backup restored) under it: it stops, writes nothing more, and says so.
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { isSameProcess } from "../../src/process/process-info.ts";
import { botsPerTest, type BotProcess, readDb, waitFor } from "../helpers/bot-process.ts";
import { demoLockedFields } from "../helpers/demo-stack.ts";
import { runCli } from "../helpers/run-cli.ts";
import { startSlackHarness } from "../slack/slack-harness.ts";
import { CHANNEL, TEAM } from "../slack/slack-payloads.ts";
import { tempDir } from "../helpers/test-services.ts";

const bots = botsPerTest();
const { dataDirs } = bots;

/** The bot's exit code when its database file was deleted or replaced under it (docs/reliability.md). */
const DATABASE_GONE_EXIT = 3;

const startBot = (cwd: string, env: Record<string, string> = {}): Promise<BotProcess> =>
  bots.startBot(cwd, { RL_LOG_LEVEL: "error", ...env });

/** The log's error lines: the bot says once what happened, and nothing else fails on the way out. */
const errorLines = (bot: BotProcess): number =>
  bot
    .stderr()
    .split("\n")
    .filter((l) => l.includes('"level":"error"')).length;

/** The environment each channel has selected, read from a database file with nothing beside it. */
function selections(file: string): Array<{ environment: string | null }> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT environment FROM channels ORDER BY 1").all() as Array<{ environment: string | null }>;
  } finally {
    db.close();
  }
}

describe("the database file under a running bot", () => {
  it("deleted: the bot stops with exit 3 naming the file, creates no new one, and the next start refuses", async () => {
    const cwd = tempDir();
    const data = path.join(cwd, "data");
    const file = path.join(data, "rl-chatops.db");
    const bot = await startBot(cwd);
    bot.write("/rl select parity\n");
    await waitFor(() => bot.stdout().includes("Selected parity"), "the console's answer");

    rmSync(file);
    const end = await bot.ended;
    expect(end.code).toBe(DATABASE_GONE_EXIT);
    const said = `The database file ${file} was deleted while the bot ran; the bot stopped so as not to lose or overwrite data`;
    expect(bot.stderr()).toContain(said);
    // The console is told too, and the log line names the file.
    expect(bot.stdout()).toContain(said);
    expect(bot.stderr()).toMatch(/"level":"error","message":"The database file .* was deleted/);
    expect(errorLines(bot)).toBe(1);
    expect(existsSync(file)).toBe(false);

    // What the deleted database left (its -shm, its -wal) is the folder's last trace of the data: no silent fresh start.
    const next = await runCli([], { cwd, input: "/rl envs\n" });
    expect(next.code).toBe(1);
    expect(next.stderr).toContain(`There is no database ${file} but`);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}-shm`)).toBe(true);
  });

  it("replaced by a backup: the bot stops without replaying its log onto the restored file, which keeps the backup's content", async () => {
    const cwd = tempDir();
    const data = path.join(cwd, "data");
    const file = path.join(data, "rl-chatops.db");
    const backup = path.join(cwd, "older.db");
    const bot = await startBot(cwd);
    bot.write("/rl select parity\n");
    await waitFor(() => bot.stdout().includes("Selected parity"), "the first selection");
    const copy = await runCli(["backup", backup], { cwd });
    expect(copy.code, copy.stderr).toBe(0);
    const backupBytes = readFileSync(backup);
    expect(selections(backup)).toEqual([{ environment: "parity" }]);

    // Written after the backup: only in the bot's own file and its -wal.
    bot.write("/rl select arithmetic\n");
    await waitFor(() => bot.stdout().includes("Selected arithmetic"), "the later selection");

    // An operator restores the backup the way a careful copy does: a whole file renamed over the old one.
    copyFileSync(backup, `${file}.restoring`);
    renameSync(`${file}.restoring`, file);
    const end = await bot.ended;
    expect(end.code).toBe(DATABASE_GONE_EXIT);
    expect(bot.stderr()).toContain(`The database file ${file} was replaced while the bot ran`);
    expect(errorLines(bot)).toBe(1);

    // Nothing reached the restored file, and nothing beside it would be replayed onto it at the next open.
    expect(readFileSync(file).equals(backupBytes)).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(readdirSync(data).filter((name) => name.startsWith("rl-chatops.db-wal.replaced-"))).toHaveLength(1);
    expect(selections(file)).toEqual([{ environment: "parity" }]);

    // The next start serves the restored data.
    const next = await startBot(cwd);
    next.write("/rl status\n");
    next.endInput();
    const after = await next.ended;
    expect(after.code).toBe(0);
    expect(selections(file)).toEqual([{ environment: "parity" }]);
  });

  it("a run training when its database is restored keeps running, and the next start follows it to its end", async () => {
    const cwd = tempDir();
    const data = path.join(cwd, "data");
    const file = path.join(data, "rl-chatops.db");
    const backup = path.join(cwd, "older.db");
    const env = { RL_LOCKED_FIELDS: await demoLockedFields(cwd, { totalSteps: 30, stepSeconds: 0.3 }) };
    const bot = await startBot(cwd, env);
    bot.write("/rl select arithmetic\n/rl start\n");
    const status = () =>
      readDb(cwd, env, (db) => (db.prepare("SELECT status FROM runs").get() as { status: string } | undefined)?.status);
    await waitFor(() => status() === "running", "the run to be training");
    const copy = await runCli(["backup", backup], { cwd, env });
    expect(copy.code, copy.stderr).toBe(0);
    dataDirs.push(data);

    copyFileSync(backup, `${file}.restoring`);
    renameSync(`${file}.restoring`, file);
    expect((await bot.ended).code).toBe(DATABASE_GONE_EXIT);

    // The restored file knows the run and its processes, which outlived the bot.
    const processes = new Database(file, { readonly: true, fileMustExist: true });
    const recorded = processes.prepare("SELECT pid, start_time FROM run_processes").all() as Array<{
      pid: number | null;
      start_time: string | null;
    }>;
    processes.close();
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.some((p) => p.pid !== null && isSameProcess(p.pid, p.start_time ?? undefined))).toBe(true);

    const next = await startBot(cwd, env);
    await waitFor(() => next.stdout().includes("✅ Run completed"), "the re-attached run's completed notice");
    expect(status()).toBe("completed");
  });

  it("on Slack, the channel of a live run is told directly: the outbox is in the file that is gone", async () => {
    const harness = await startSlackHarness();
    try {
      const { services, bot, fake } = harness;
      const channel = { platform: "slack", workspace: TEAM, channel: CHANNEL };
      services.runs.insert({
        id: "r1",
        channel,
        environment: "arithmetic",
        config: {},
        status: "running",
        createdBy: "U1",
      });
      rmSync(services.config.databasePath);
      const told = await fake.waitForCall(
        "chat.postMessage",
        (c) => c.ok && String(c.body.text).includes("was deleted while the bot ran"),
      );
      expect(told.body.channel).toBe(CHANNEL);
      await bot.done;
      expect(bot.fault?.message).toContain(`The database file ${services.config.databasePath} was deleted`);
    } finally {
      await harness.close();
    }
  });
});

// The wall clock jumps 2 hours ahead under a short run of the real bot (libfaketime moves its clock, not the
// machine's): the run's running time, its recorded duration and its completed notice are the time it took, by the
// monotonic clock, not 120 minutes.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  completedDuration,
  killBots,
  killRunProcesses,
  readDb,
  spawnBot,
  waitFor,
  type BotProcess,
} from "../helpers/bot-process.ts";
import { COOKBOOK_ENV, RECIPE, cookbookLockedFields } from "../helpers/cookbook.ts";
import { tempDir } from "../helpers/test-services.ts";

/** Where Debian's and Ubuntu's faketime package put the library (CI installs it: .ci/run). */
const LIBFAKETIME = [
  "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
  "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
  "/usr/lib/faketime/libfaketime.so.1",
].find((file) => existsSync(file));

const bots: BotProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  await killBots(bots);
  for (const cwd of folders.splice(0)) killRunProcesses(path.join(cwd, "data"));
});

interface RunTimes {
  id: string;
  status: string;
  started_at: number | null;
  ended_at: number | null;
}

describe("a wall clock jump under a run", () => {
  it("+2 h while a short run trains: its running time and duration are the time it took", async (ctx) => {
    if (!LIBFAKETIME) return ctx.skip("libfaketime is not installed (apt-get install faketime)");
    const cwd = tempDir("rl-clock-");
    folders.push(cwd);
    const offset = path.join(cwd, "clock-offset");
    writeFileSync(offset, "+0\n");
    const env = {
      ...COOKBOOK_ENV,
      RL_LOCKED_FIELDS: cookbookLockedFields(cwd),
      RL_LOG_LEVEL: "warn",
      // The bot's wall clock reads this file on every call; its monotonic clock is left alone.
      LD_PRELOAD: LIBFAKETIME,
      FAKETIME_TIMESTAMP_FILE: offset,
      FAKETIME_NO_CACHE: "1",
      FAKETIME_DONT_FAKE_MONOTONIC: "1",
    };
    const runs = () =>
      readDb(cwd, env, (db) => db.prepare("SELECT id, status, started_at, ended_at FROM runs").all() as RunTimes[]) ??
      [];
    const bot = spawnBot(cwd, env);
    bots.push(bot);
    bot.write(`/rl select ${RECIPE}\n/rl set demo_n_batches 16\n/rl set demo_step_seconds 0.3\n/rl start\n`);
    const { id } = await waitFor(() => runs().find((r) => r.status === "running"), "the run to be training");

    writeFileSync(offset, "+2h\n");
    const before = bot.stdout().length;
    bot.write(`/rl status ${id}\n`);
    const shown = await waitFor(
      () => /Running time: ([\d.]+) min/.exec(bot.stdout().slice(before))?.[1],
      "the run's status after the jump",
    );
    expect(Number(shown)).toBeLessThan(30);

    const run = await waitFor(() => runs().find((r) => r.status === "completed"), "the run to complete");
    const took = run.ended_at! - run.started_at!;
    expect(took).toBeGreaterThan(0);
    expect(took).toBeLessThan(30 * 60_000);
    const duration = await completedDuration(cwd, env, id);
    expect(duration).toMatch(/^(\d+s|\dm \d+s)$/);
    bot.endInput();
    expect((await bot.ended).code).toBe(0);
  });
});

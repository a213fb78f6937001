// A run that finishes while no bot runs: the real bot is SIGKILLed mid-run, the run ends on its own, and a bot started
// well after says it completed, timed by the run's own files (its duration is the run's, not the gap until the restart).
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatDuration } from "../../src/values/format-value.ts";
import {
  completedDuration,
  killBots,
  killRunProcesses,
  readDb,
  runProcessesLeft,
  spawnBot,
  waitFor,
  type BotProcess,
} from "../helpers/bot-process.ts";
import { COOKBOOK_ENV, RECIPE, cookbookLockedFields } from "../helpers/cookbook.ts";
import { tempDir } from "../helpers/test-services.ts";

interface RunTimes {
  id: string;
  status: string;
  started_at: number | null;
  ended_at: number | null;
}

const GAP_MS = 12_000;

const bots: BotProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  await killBots(bots);
  for (const cwd of folders.splice(0)) killRunProcesses(path.join(cwd, "data"));
});

describe("a run that ended while no bot ran", () => {
  it("is timed by its own files: its row, status and the completed notice agree on the run's duration", async () => {
    const cwd = tempDir("rl-away-");
    folders.push(cwd);
    const dataDir = path.join(cwd, "data");
    const env = { ...COOKBOOK_ENV, RL_LOCKED_FIELDS: cookbookLockedFields(cwd) };
    const runs = () =>
      readDb(cwd, env, (db) => db.prepare("SELECT id, status, started_at, ended_at FROM runs").all() as RunTimes[]) ??
      [];

    const first = spawnBot(cwd, env);
    bots.push(first);
    first.write(`/rl select ${RECIPE}\n/rl set demo_n_batches 10\n/rl set demo_step_seconds 0.3\n/rl start\n`);
    const { id } = await waitFor(() => runs().find((r) => r.status === "running"), "the run to be running");
    first.kill("SIGKILL");
    await first.ended;

    // The run goes on alone and ends; nothing watches it for a while after.
    await waitFor(() => runProcessesLeft(dataDir).length === 0, "the run's process to end on its own");
    const gone = Date.now();
    await new Promise((r) => setTimeout(r, GAP_MS));

    const second = spawnBot(cwd, env);
    bots.push(second);
    const restarted = Date.now();
    const run = await waitFor(
      () => runs().find((r) => r.id === id && r.status === "completed"),
      "the restarted bot to find the run completed",
    );
    const took = run.ended_at! - run.started_at!;
    // Ended when its files were last written: before its process was seen gone, long before the bot came back.
    expect(run.ended_at!).toBeLessThanOrEqual(gone);
    expect(restarted - run.ended_at!).toBeGreaterThanOrEqual(GAP_MS);
    expect(took).toBeGreaterThan(0);
    expect(took).toBeLessThan(GAP_MS);

    expect(await completedDuration(cwd, env, id)).toBe(formatDuration(took));

    second.write(`/rl status ${id}\n`);
    const minutes = Math.round((took / 60_000) * 10) / 10;
    await waitFor(() => second.stdout().includes(`Running time: ${minutes} min`), "status to show the run's time");
    second.endInput();
    await second.ended;
  });
});

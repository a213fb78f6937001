// The real bot with its data folder on a small disk that a run's trainer fills: the run's end is recorded once space
// returns, naming the full disk; the rest of the run is stopped at once; read-only commands answer meanwhile.
import { mkdirSync, readdirSync, rmSync, statfsSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { isSameProcess, signalGroup } from "../../src/process/process-info.ts";
import { type BotProcess, killBots, readDb, spawnBot, waitFor, waitForBot } from "../helpers/bot-process.ts";
import { demoLockedFields } from "../helpers/demo-stack.ts";
import { tempDir } from "../helpers/test-services.ts";

const started: BotProcess[] = [];
const mounts: string[] = [];
const runProcesses: ProcessRow[] = [];

afterAll(async () => {
  await killBots(started);
  // A run the bot failed to stop (the disk's full refusal not handled) would hold the demo ports.
  for (const p of runProcesses.splice(0))
    if (isSameProcess(p.pid, p.start_time ?? undefined)) signalGroup(p.pid, "SIGKILL");
  for (const dir of mounts.splice(0)) await execa("umount", ["-l", dir], { reject: false });
});

/** A folder on a tmpfs of its own, or why one cannot be mounted here. */
async function smallDisk(dir: string, size: string): Promise<string | undefined> {
  mkdirSync(dir, { recursive: true });
  const mounted = await execa("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { reject: false });
  if (mounted.exitCode !== 0) return `mount refused: ${mounted.stderr || mounted.stdout || `exit ${mounted.exitCode}`}`;
  mounts.push(dir);
  return undefined;
}

const freeBytes = (dir: string): number => {
  const { bavail, bsize } = statfsSync(dir);
  return bavail * bsize;
};

interface ProcessRow {
  component: string;
  pid: number;
  start_time: string | null;
}

describe("a full disk while a run trains", () => {
  it("stops the rest of the run, answers /rl status, and records the run failed naming the disk once space returns", async (ctx) => {
    const cwd = tempDir();
    const data = path.join(cwd, "data");
    const refused = await smallDisk(data, "48m");
    if (refused) return ctx.skip(refused);
    const env = {
      RL_LOG_LEVEL: "error",
      RL_STOP_GRACE_SECONDS: "3",
      RL_LOCKED_FIELDS: await demoLockedFields(cwd, { totalSteps: 40, stepSeconds: 0.2, fault: "fill_disk:20" }),
    };
    const bot = spawnBot(cwd, env);
    started.push(bot);
    await waitForBot(data, bot.pid);
    bot.write("/rl select arithmetic\n/rl start\n");
    const status = () =>
      readDb(cwd, env, (db) => (db.prepare("SELECT status FROM runs").get() as { status: string } | undefined)?.status);
    await waitFor(() => status() === "running", "the run to be training");
    const processes = readDb(cwd, env, (db) =>
      db.prepare("SELECT component, pid, start_time FROM run_processes").all(),
    ) as ProcessRow[];
    runProcesses.push(...processes);
    expect(processes.map((p) => p.component).sort()).toEqual(["api", "env", "trainer"]);

    // The trainer fills the disk in its step 3 and dies of it; the bot stops what is left of the run at once.
    const filler = path.join(data, "run-configs", "demo-disk-filler");
    await waitFor(() => freeBytes(data) < 1024 * 1024 && readdirSync(path.dirname(filler)).length > 0, "a full disk");
    await waitFor(
      () => processes.every((p) => !isSameProcess(p.pid, p.start_time ?? undefined)),
      "every process of the run to be gone",
    );

    // A read-only command answers while nothing can be written.
    const before = bot.stdout().length;
    bot.write("/rl status\n");
    await waitFor(() => /arithmetic/.test(bot.stdout().slice(before)), "/rl status to answer");
    expect(freeBytes(data)).toBeLessThan(1024 * 1024);

    // Space returns: the run's end is written, with a notice that names the cause.
    rmSync(filler);
    await waitFor(() => status() === "failed", "the run to be recorded failed");
    const said = `No space was left on the disk of the data folder ${data}.`;
    await waitFor(() => bot.stdout().includes(said), "the notice naming the full disk");
    const error = readDb(cwd, env, (db) => (db.prepare("SELECT error FROM runs").get() as { error: string }).error);
    expect(error).toContain(said);

    // The bot carries on: it answers and exits cleanly.
    bot.write("/rl runs\n");
    bot.endInput();
    expect((await bot.ended).code).toBe(0);
  });
});

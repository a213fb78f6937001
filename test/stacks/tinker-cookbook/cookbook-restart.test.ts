// A cookbook run outlives its bot: the real bot process is SIGKILLed while the recipe trains, and the bot started again
// on the same data folder re-attaches to the same recipe process and reports the run completed.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processStartTime } from "../../../src/process/process-info.ts";
import { killBots, killRunProcesses, readDb, spawnBot, waitFor, type BotProcess } from "../../helpers/bot-process.ts";
import { COOKBOOK_ENV, RECIPE, cookbookLockedFields } from "../../helpers/cookbook.ts";
import { tempDir } from "../../helpers/test-services.ts";

const bots: BotProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  await killBots(bots);
  for (const cwd of folders.splice(0)) killRunProcesses(cwd);
});

interface Row {
  id: string;
  status: string;
  stack: string;
}

describe("a cookbook run across a bot crash", () => {
  it("SIGKILL while the recipe trains: the restarted bot re-attaches to the same process and the run completes", async () => {
    const cwd = tempDir("rl-cookbook-restart-");
    folders.push(cwd);
    const env = { ...COOKBOOK_ENV, RL_LOCKED_FIELDS: cookbookLockedFields(cwd) };
    const runs = () => readDb(cwd, env, (db) => db.prepare("SELECT id, status, stack FROM runs").all() as Row[]) ?? [];
    const pidOf = (runId: string) =>
      readDb(
        cwd,
        env,
        (db) =>
          db.prepare("SELECT pid FROM run_processes WHERE run_id = ? AND component = 'trainer'").get(runId) as
            { pid: number } | undefined,
      )?.pid;

    const first = spawnBot(cwd, env);
    bots.push(first);
    first.write(`/rl select ${RECIPE}\n/rl set demo_step_seconds 0.2\n/rl set demo_n_batches 40\n/rl start\n`);
    const [run] = await waitFor(() => {
      const rows = runs();
      return rows[0]?.status === "running" ? rows : undefined;
    }, "the run to be running");
    expect(run!.stack).toBe("tinker-cookbook");
    const pid = pidOf(run!.id)!;
    expect(processStartTime(pid)).toBeDefined();
    const metrics = path.join(cwd, "data", "runs", run!.id, "metrics.jsonl");
    await waitFor(() => existsSync(metrics) && readFileSync(metrics, "utf8").split("\n").length > 3, "three steps");
    first.kill("SIGKILL");
    await first.ended;
    // The bot is gone; the recipe is not.
    expect(processStartTime(pid)).toBeDefined();
    expect(runs()[0]!.status).toBe("running");

    const second = spawnBot(cwd, env);
    bots.push(second);
    const completedLine = new RegExp(
      `✅ Run completed: ${run!.id} \\(${RECIPE.replace(".", "\\.")}\\)\\nTraining complete after 40 steps; reward mean [\\d.]+\\. Final weights: tinker://`,
    );
    await waitFor(
      () => runs()[0]!.status === "completed" && completedLine.test(second.stdout()),
      "the run to complete under the restarted bot",
    );
    // Re-attached, not started again: the same process ran it to the end.
    expect(pidOf(run!.id)).toBe(pid);
    expect(processStartTime(pid)).toBeUndefined();
    second.write(`/rl status ${run!.id}\n`);
    await waitFor(() => /Step: 40 \/ 40/.test(second.stdout()), "the status with every step");
    expect(second.stdout()).toMatch(/Processes: trainer exited/);
    second.endInput();
    expect((await second.ended).code).toBe(0);
  });
});

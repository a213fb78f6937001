// Resume's crash points: the real bot, resuming a stopped cookbook-miniature run, is SIGKILLed between its decision and
// the resumed process; restarted, it leaves one run, each attempt's notices once, no orphan, and the run can finish.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { RESUME_CRASH_POINTS } from "../../src/process/crash-point.ts";
import {
  killBots,
  killRunProcesses,
  readDb,
  runProcessesLeft,
  spawnBot,
  waitFor,
  type BotProcess,
} from "../helpers/bot-process.ts";
import { COOKBOOK_ENV, RECIPE, cookbookLockedFields, processesMentioning } from "../helpers/cookbook.ts";
import { tempDir } from "../helpers/test-services.ts";

const STEPS = 16;
const TERMINAL = ["completed", "failed", "stopped", "lost"];

interface RunLite {
  id: string;
  status: string;
  attempt: number;
  resumed_step: number | null;
}

const bots: BotProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  await killBots(bots);
  for (const cwd of folders.splice(0)) killRunProcesses(path.join(cwd, "data"));
});

/** What the restarted bot makes of the resumed attempt: one still starting is reported lost (its process, if spawned,
 * stopped), as any start the bot died in; one whose notice was being posted is running, and is taken over to the end. */
const AFTER_RESTART: Record<(typeof RESUME_CRASH_POINTS)[number], "lost" | "completed"> = {
  "resume:committed": "lost",
  "resume:relaunching": "lost",
  "resume:spawned:trainer": "lost",
  "resume:posted": "completed",
};

const results: Array<{ point: string; violations: string[] }> = [];
afterAll(() => {
  const violations = results.reduce((n, r) => n + r.violations.length, 0);
  process.stdout.write(
    `resume crash points: ${results.length} of ${RESUME_CRASH_POINTS.length} covered, ${violations} violations\n`,
  );
});

describe("resume crash points", () => {
  it.each([...RESUME_CRASH_POINTS])(
    "SIGKILL at %s: the restarted bot settles the resumed attempt once, leaves no process, and the run can finish",
    async (point) => {
      const cwd = tempDir("rl-resume-crash-");
      folders.push(cwd);
      const dataDir = path.join(cwd, "data");
      const env = { ...COOKBOOK_ENV, RL_LOCKED_FIELDS: cookbookLockedFields(cwd) };
      const runs = () =>
        readDb(cwd, env, (db) => db.prepare("SELECT id, status, attempt, resumed_step FROM runs").all() as RunLite[]) ??
        [];
      const notices = (runId: string) =>
        readDb(
          cwd,
          env,
          (db) =>
            db
              .prepare("SELECT dedupe_key AS key, status FROM outbox WHERE run_id = ? AND kind = 'notice' ORDER BY id")
              .all(runId) as Array<{ key: string; status: string }>,
        ) ?? [];
      const checkpoints = (runId: string) => {
        const file = path.join(dataDir, "runs", runId, "checkpoints.jsonl");
        return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : [];
      };
      const settled = (runId: string) => {
        const run = runs().find((r) => r.id === runId);
        return (
          run !== undefined &&
          TERMINAL.includes(run.status) &&
          notices(runId).every((n) => n.status === "sent") &&
          runProcessesLeft(dataDir).length === 0 &&
          run
        );
      };
      const violations: string[] = [];

      const first = spawnBot(cwd, { ...env, RL_CRASH_AT: point });
      bots.push(first);
      first.write(
        `/rl select ${RECIPE}\n/rl set demo_n_batches ${STEPS}\n/rl set save_every 4\n/rl set demo_step_seconds 0.15\n/rl start\n`,
      );
      const { id } = await waitFor(() => runs().find((r) => r.status === "running"), "the run to be running");
      await waitFor(() => checkpoints(id).length >= 1, "a checkpoint");
      first.write(`/rl stop ${id}\n`);
      await waitFor(() => runs().find((r) => r.id === id && r.status === "stopped"), "the run to stop");
      first.write(`/rl resume ${id}\n`);
      const end = await first.ended;
      if (end.signal !== "SIGKILL") violations.push(`the bot ended without reaching ${point} (code ${end.code})`);

      const second = spawnBot(cwd, env);
      bots.push(second);
      try {
        const after = await waitFor(() => settled(id), `run ${id} to be settled after the restart`);
        if (after.attempt !== 1) violations.push(`attempt ${after.attempt} after one resume`);
        if (after.status !== AFTER_RESTART[point])
          violations.push(`the restarted bot left the resumed attempt ${after.status}, not ${AFTER_RESTART[point]}`);
        // A resume the crash cut short is reported (lost); resumed again, the run goes on from the same checkpoint.
        if (after.status !== "completed") {
          second.write(`/rl resume ${id}\n`);
          await waitFor(() => runs().find((r) => r.id === id && r.attempt === 2), "the second resume");
          await waitFor(() => settled(id), `run ${id} to settle after the second resume`);
        }
        const final = runs().filter((r) => r.id === id);
        if (runs().length !== 1) violations.push(`${runs().length} runs in the database`);
        if (final[0]?.status !== "completed") violations.push(`the run ended ${final[0]?.status}`);
        const keys = notices(id).map((n) => n.key);
        for (let attempt = 1; attempt <= (final[0]?.attempt ?? 0); attempt++) {
          const mine = keys.filter((k) => k.startsWith(`notice:${id}:${attempt}:`));
          const resumed = mine.filter((k) => k.endsWith(":resumed"));
          const terminal = mine.filter((k) => TERMINAL.some((t) => k.endsWith(`:${t}`)));
          if (resumed.length !== 1) violations.push(`attempt ${attempt}: ${resumed.length} resumed notices`);
          if (terminal.length !== 1) violations.push(`attempt ${attempt}: terminal notices ${terminal.join(", ")}`);
        }
        if (keys.filter((k) => k.endsWith(":completed")).length !== 1)
          violations.push(`completed notices: ${keys.join(", ")}`);
        const steps = readFileSync(path.join(dataDir, "runs", id, "metrics.jsonl"), "utf8")
          .trim()
          .split("\n")
          .map((l) => (JSON.parse(l) as { step: number }).step);
        if (steps.at(-1) !== STEPS - 1) violations.push(`the last step logged is ${steps.at(-1)}`);
        const orphans = processesMentioning(path.join(dataDir, "runs", id));
        if (orphans.length) violations.push(`processes of the run still alive: ${orphans.join(", ")}`);
        second.endInput();
        const exit = await second.ended;
        if (exit.code !== 0) violations.push(`the restarted bot exited with ${exit.code ?? exit.signal}`);
      } finally {
        results.push({ point, violations });
      }
      expect(violations).toEqual([]);
    },
    240_000,
  );
});

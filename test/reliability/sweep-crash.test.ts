// A sweep survives the bot being SIGKILLed mid-sweep: the restarted bot finishes its runs in turn and posts its comparison once.
import { describe, expect, it } from "vitest";
import { demoLockedFields } from "../helpers/demo-stack.ts";
import { tempDir } from "../helpers/test-services.ts";
import { readDb, spawnBot, waitFor } from "../helpers/bot-process.ts";
import { READY_TIMEOUT_SECONDS } from "../helpers/ceiling.ts";

interface Row {
  id: string;
  status: string;
  sweep_id: string | null;
}

describe("a sweep across a crash", () => {
  it("SIGKILL while its first run trains: the restarted bot re-attaches it, runs the second, and posts one comparison", async () => {
    const cwd = tempDir("rl-sweep-crash-");
    const env = {
      RL_LOCKED_FIELDS: await demoLockedFields(cwd, { totalSteps: 30, stepSeconds: 0.1 }),
      RL_STOP_GRACE_SECONDS: "3",
      RL_READY_TIMEOUT_SECONDS: READY_TIMEOUT_SECONDS,
    };
    const runs = () =>
      readDb(
        cwd,
        env,
        (db) => db.prepare("SELECT id, status, sweep_id FROM runs ORDER BY created_at, rowid").all() as Row[],
      ) ?? [];
    const comparisons = () =>
      readDb(
        cwd,
        env,
        (db) =>
          db.prepare("SELECT status FROM outbox WHERE dedupe_key LIKE 'comparison:%'").all() as Array<{
            status: string;
          }>,
      ) ?? [];

    const first = spawnBot(cwd, env);
    first.write("/rl select arithmetic\n/rl sweep temperature=0.2,1.8\n");
    await waitFor(() => runs().length === 2 && runs()[0]!.status === "running", "the sweep's first run to be running");
    first.kill("SIGKILL");
    await first.ended;
    expect(runs().map((r) => r.status)).toEqual(["running", "queued"]);

    const bot = spawnBot(cwd, env);
    try {
      // The console writes the comparison before marking it sent, but this process reads the bot's stdout
      // on its own loop: wait for both rather than read stdout the moment the row says sent.
      const comparisonLine = /📊 Sweep s\w+ \(arithmetic\): finished, 2 runs compared/;
      await waitFor(
        () =>
          runs().every((r) => r.status === "completed") &&
          comparisons().some((c) => c.status === "sent") &&
          comparisonLine.test(bot.stdout()),
        "both runs to complete and the comparison to be posted",
      );
      expect(new Set(runs().map((r) => r.sweep_id)).size).toBe(1);
      bot.endInput();
      expect((await bot.ended).code).toBe(0);
      // Queued and printed once: counted once the bot has ended and its stdout is read to the end, so no repeat can come later.
      expect(comparisons()).toEqual([{ status: "sent" }]);
      expect(bot.stdout().match(new RegExp(comparisonLine, "g"))).toHaveLength(1);
    } finally {
      bot.kill("SIGKILL");
    }
  });
});

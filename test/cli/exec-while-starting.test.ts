// Ready means listening: a bot's pid file says "starting" from the moment it takes the data folder until its exec
// socket accepts commands, and exec clients that find it starting wait for it (bounded by --timeout) instead of failing
// to connect. The real bot is held mid-start (SIGSTOP) while many execs are sent at once; all are answered.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readLeaseHolder } from "../../src/lease/lease-holder.ts";
import { botsPerTest, spawnBot, waitFor, type BotProcess } from "../helpers/bot-process.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const { started } = botsPerTest();

/**
 * A bot in a fresh folder, stopped (SIGSTOP) while its pid file says "starting": caught between taking the folder and
 * listening (its database is made and migrated in between); one that was ready before it could be stopped is ended and
 * started again.
 */
async function botHeldStarting(): Promise<{ cwd: string; dataDir: string; bot: BotProcess }> {
  for (let attempt = 1; ; attempt++) {
    const cwd = tempDir("rl-starting-");
    const dataDir = path.join(cwd, "data");
    const bot = spawnBot(cwd, { RL_LOG_LEVEL: "warn" });
    started.push(bot);
    await waitFor(() => readLeaseHolder(dataDir)?.pid === bot.pid, "the bot to take the data folder", { everyMs: 2 });
    bot.kill("SIGSTOP");
    if (readLeaseHolder(dataDir)?.state === "starting") return { cwd, dataDir, bot };
    if (attempt === 5) throw new Error("the bot was ready each time before it could be held");
    bot.kill("SIGKILL");
    await bot.ended;
  }
}

/** Longer than a client's retries of a socket that is not there yet (askBot's connect wait, 5 s). */
const HELD_MS = 6000;

describe("exec against a bot that is starting", () => {
  it("waits until its socket listens: every one of many parallel execs is answered", async () => {
    const { cwd, dataDir, bot } = await botHeldStarting();
    try {
      const execs = Array.from({ length: 24 }, (_, i) =>
        runCli(["exec", i % 2 ? "/rl help" : "/rl envs", "--json"], { cwd, env: { RL_LOG_LEVEL: "warn" } }),
      );
      // Held past the point where a client that only retried its connection would have given up.
      await new Promise((r) => setTimeout(r, HELD_MS));
      expect(readLeaseHolder(dataDir)?.state).toBe("starting");
      bot.kill("SIGCONT");
      const answers = await Promise.all(execs);
      for (const a of answers) expect(a.code, `${a.stdout}${a.stderr}`).toBe(0);
      expect(answers.filter((a) => a.stdout.includes('"environments"'))).toHaveLength(12);
    } finally {
      bot.kill("SIGCONT");
    }
    expect(readLeaseHolder(dataDir)).toMatchObject({ pid: bot.pid, state: "ready" });
  });

  it("says it is still starting, and what to do, when it stays starting past --timeout", async () => {
    const { cwd, dataDir, bot } = await botHeldStarting();
    try {
      const out = await runCli(["exec", "/rl status", "--timeout", "1"], { cwd });
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(`The bot (pid ${bot.pid}) that owns the data folder ${dataDir} is still starting`);
      expect(out.stderr).toContain("Run the command again in a moment");
      expect(out.stderr).not.toContain("ENOENT");
    } finally {
      bot.kill("SIGCONT");
    }
  });
});

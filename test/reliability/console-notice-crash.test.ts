// The console bot SIGKILLed right after the outbox marks a notice sent, while its stdout is read slowly (a slow
// terminal or log pipe): the notice marked sent is in what the bot wrote, not lost in the bot's own buffer.
import { afterEach, describe, expect, it } from "vitest";
import { type BotProcess, killBots, readDb, spawnBot, waitFor } from "../helpers/bot-process.ts";
import { tempDir } from "../helpers/test-services.ts";

const bots: BotProcess[] = [];
afterEach(async () => {
  await killBots(bots);
});

describe("a console notice marked sent", () => {
  it("was printed: a crash right after the mark, with stdout backed up, does not lose it", async () => {
    const cwd = tempDir("rl-console-crash-");
    // A start that fails at once queues its failed notice, which the console prints through the outbox.
    const env = { RL_API_COMMAND: "run-api-not-installed" };
    const bot = spawnBot(cwd, env, { slowStdout: 8_192 });
    bots.push(bot);
    // Hundreds of kilobytes of answers ahead of the notice: more than the pipe holds, so they wait in the bot.
    bot.write("/rl help\n".repeat(250));
    bot.write("/rl select arithmetic\n/rl start\n");
    const failedNotice = () =>
      readDb(
        cwd,
        env,
        (db) =>
          db.prepare("SELECT status FROM outbox WHERE dedupe_key LIKE 'notice:%:failed'").get() as
            { status: string } | undefined,
      );
    await waitFor(() => failedNotice()?.status === "sent", "the failed notice to be marked sent");
    bot.kill("SIGKILL");
    const end = await bot.ended;
    expect(end.signal).toBe("SIGKILL");
    // What the bot wrote before it was killed reached this process: the answers ahead of the notice, and the notice.
    expect(bot.stdout()).toContain("rl-chatops commands");
    expect(bot.stdout()).toMatch(/❌ Run failed: \w+ \(arithmetic\)/);
  });
});

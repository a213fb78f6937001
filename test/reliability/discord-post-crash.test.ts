// The real bot SIGKILLed between Discord accepting a notice and the outbox marking it sent: after the restart the
// notice is posted again with the same nonce, and Discord (the fake enforces its enforce_nonce rule) keeps one message.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createOutboxRepo } from "../../db/outbox.ts";
import { openDatabase } from "../../db/open-database.ts";
import { loadConfig } from "../../src/config.ts";
import { startFakeDiscord, type FakeDiscord, type RecordedCall } from "../fakes/discord-gateway.ts";
import { type BotProcess, killBots, readDb, spawnBot, waitFor } from "../helpers/bot-process.ts";
import { tempDir } from "../helpers/test-services.ts";

let fake: FakeDiscord | undefined;
const bots: BotProcess[] = [];

afterEach(async () => {
  await killBots(bots);
  await fake?.close();
  fake = undefined;
});

const TITLE = "✅ Run completed: r-crash";

describe("a crash between a Discord post and its mark as sent", () => {
  it("posts the notice once: the repeat after the restart carries the same nonce and gets Discord's first message back", async () => {
    fake = await startFakeDiscord();
    const cwd = tempDir("rl-discord-crash-");
    const env = { DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, DISCORD_GUILD_ID: fake.ids.guild };
    // A notice a transition queued and no bot has sent yet, as the lifecycle leaves it in the outbox.
    const config = loadConfig(env, cwd);
    mkdirSync(path.dirname(config.databasePath), { recursive: true });
    const db = openDatabase(config.databasePath);
    createOutboxRepo(db).enqueue(
      {
        dedupeKey: "notice:r-crash:completed",
        target: { channel: { platform: "discord", workspace: fake.ids.guild, channel: fake.ids.channel } },
        kind: "notice",
        reply: { title: TITLE },
      },
      Date.now(),
    );
    db.close();
    const row = () =>
      readDb(
        cwd,
        env,
        (d) =>
          d
            .prepare("SELECT status, message_id AS messageId FROM outbox WHERE dedupe_key = 'notice:r-crash:completed'")
            .get() as { status: string; messageId: string | null },
      );
    const posts = (): RecordedCall[] =>
      fake!.calls.filter((c) => c.method === "POST" && c.path === `/channels/${fake!.ids.channel}/messages`);
    const notices = () =>
      fake!
        .channelMessages(fake!.ids.channel)
        .filter((m) => (m["embeds"] as Array<{ title?: string }>)[0]?.title === TITLE);

    const first = spawnBot(cwd, { ...env, RL_CRASH_AT: "posted" });
    bots.push(first);
    const end = await first.ended;
    expect(end.signal, first.stderr().slice(-500)).toBe("SIGKILL");
    // Discord has the message; the outbox never heard.
    expect(notices()).toHaveLength(1);
    expect(row()?.status).toBe("pending");

    const second = spawnBot(cwd, env);
    bots.push(second);
    const sent = await waitFor(
      () => (row()?.status === "sent" ? row() : undefined),
      "the notice to be marked sent after the restart",
    );

    expect(posts().map((c) => c.status)).toEqual([200, 200]);
    const [before, after] = posts().map((c) => c.body as { nonce?: unknown; enforce_nonce?: unknown });
    expect(before?.enforce_nonce).toBe(true);
    expect(typeof before?.nonce).toBe("string");
    expect(String(before?.nonce).length).toBeLessThanOrEqual(25);
    expect(after?.nonce).toBe(before?.nonce);
    const kept = notices();
    expect(kept).toHaveLength(1);
    expect(sent?.messageId).toBe(kept[0]?.["id"]);
    second.kill("SIGTERM");
    expect((await second.ended).code).toBe(0);
  }, 120_000);
});

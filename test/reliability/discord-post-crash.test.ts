// The real bot SIGKILLed between Discord accepting a notice and the outbox marking it sent: after the restart the
// notice is posted again with the same nonce, and Discord (the fake enforces its enforce_nonce rule) keeps one message;
// a DM notice (/rl notify ... dm) likewise arrives once in the starter's DM channel, and nothing in the channel.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createOutboxRepo, dmChannel, type NewOutboxMessage } from "../../db/outbox.ts";
import { openDatabase } from "../../db/open-database.ts";
import { loadConfig } from "../../src/config.ts";
import { startFakeDiscord, type FakeDiscord, type RecordedCall } from "../fakes/discord-gateway.ts";
import { IDS } from "../fakes/discord-payloads.ts";
import { type BotProcess, killBots, readDb, spawnBot, waitFor } from "../helpers/bot-process.ts";
import { tempDir } from "../helpers/test-services.ts";

let fake: FakeDiscord | undefined;
const bots: BotProcess[] = [];

afterEach(async () => {
  await killBots(bots);
  await fake?.close();
  fake = undefined;
});

/** A bot's data folder whose outbox holds `message`, as the lifecycle queues it, and a reader of its row. */
function queued(fake: FakeDiscord, prefix: string, message: NewOutboxMessage) {
  const cwd = tempDir(prefix);
  const env = { DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, DISCORD_GUILD_ID: fake.ids.guild };
  const config = loadConfig(env, cwd);
  mkdirSync(path.dirname(config.databasePath), { recursive: true });
  const db = openDatabase(config.databasePath);
  createOutboxRepo(db).enqueue(message, Date.now());
  db.close();
  const row = () =>
    readDb(
      cwd,
      env,
      (d) =>
        d.prepare("SELECT status, message_id AS messageId FROM outbox WHERE dedupe_key = ?").get(message.dedupeKey) as
          { status: string; messageId: string | null } | undefined,
    );
  return { cwd, env, row };
}

const TITLE = "✅ Run completed: r-crash";
const DM_TITLE = "✅ Run completed: r-dm-crash";

describe("a crash between a Discord post and its mark as sent", () => {
  it("posts the notice once: the repeat after the restart carries the same nonce and gets Discord's first message back", async () => {
    fake = await startFakeDiscord();
    // A notice a transition queued and no bot has sent yet, as the lifecycle leaves it in the outbox.
    const { cwd, env, row } = queued(fake, "rl-discord-crash-", {
      dedupeKey: "notice:r-crash:completed",
      target: { channel: { platform: "discord", workspace: fake.ids.guild, channel: fake.ids.channel } },
      kind: "notice",
      reply: { title: TITLE },
    });
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
  });

  it("the queued DM survives the SIGKILL and arrives once in the starter's DM channel", async () => {
    fake = await startFakeDiscord();
    // The DM notice as the lifecycle queues it for a run whose starter asked for DMs.
    const { cwd, env, row } = queued(fake, "rl-discord-dm-crash-", {
      dedupeKey: "notice:r-dm-crash:completed",
      target: { channel: { platform: "discord", workspace: fake.ids.guild, channel: dmChannel(IDS.alice) } },
      kind: "notice",
      route: "dm",
      reply: { title: DM_TITLE },
    });
    const dms = () =>
      fake!
        .channelMessages(fake!.dmChannelOf(IDS.alice) ?? "none")
        .filter((m) => (m["embeds"] as Array<{ title?: string }>)[0]?.title === DM_TITLE);

    const first = spawnBot(cwd, { ...env, RL_CRASH_AT: "posted" });
    bots.push(first);
    const end = await first.ended;
    expect(end.signal, first.stderr().slice(-500)).toBe("SIGKILL");
    expect(dms()).toHaveLength(1);
    expect(row()?.status).toBe("pending");

    const second = spawnBot(cwd, env);
    bots.push(second);
    await waitFor(() => (row()?.status === "sent" ? row() : undefined), "the DM to be marked sent after the restart");
    const posts = fake.calls.filter(
      (c) => c.method === "POST" && c.path === `/channels/${fake!.dmChannelOf(IDS.alice)}/messages`,
    );
    expect(posts.map((c) => c.status)).toEqual([200, 200]);
    const [before, after] = posts.map((c) => c.body as { nonce?: unknown });
    expect(after?.nonce).toBe(before?.nonce);
    expect(dms()).toHaveLength(1);
    // Nothing reached the channel: a DM is a DM.
    expect(fake.channelMessages(fake.ids.channel)).toHaveLength(0);
    second.kill("SIGTERM");
    expect((await second.ended).code).toBe(0);
  });
});

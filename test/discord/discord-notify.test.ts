// /rl notify through the real discord.js client against the fake: a DM notice goes to the starter's DM channel
// (POST /users/@me/channels) once, and a DM Discord refuses (50007) falls back to the run's thread and shows in
// /rl status.
import { describe, expect, it } from "vitest";
import { IDS } from "../fakes/discord-payloads.ts";
import { runMover, until } from "../notify/notify-kit.ts";
import { embedsOf, harnessPerTest, type Harness } from "./harness.ts";

const start = harnessPerTest();

const titled = (harness: Harness, channel: string, title: string) =>
  harness.fake.channelMessages(channel).filter((m) => (m["embeds"] as Array<{ title?: string }>)[0]?.title === title);

async function answer(harness: Harness, values: Record<string, string>): Promise<string> {
  const call = await harness.fake.slash("notify", values).callback();
  return embedsOf(call)
    .map((e) => `${String(e["title"])}\n${String(e["description"] ?? "")}`)
    .join("\n");
}

describe("/rl notify on Discord", () => {
  it("sends a completion to the starter's DM channel once; a refused DM (50007) falls back and is reported", async () => {
    const harness = await start();
    expect(await answer(harness, { what: "completed,failed", where: "dm" })).toContain(
      "completed, failed of this channel go to a DM to whoever started the run",
    );
    const runs = runMover(harness.services);
    const thread = harness.channel.channel;

    runs.start("r-dm", harness.channel, IDS.alice, thread);
    runs.end("r-dm", "completed");
    await until(() => harness.fake.dmChannelOf(IDS.alice) !== undefined, "the DM channel");
    const dm = harness.fake.dmChannelOf(IDS.alice)!;
    const title = "✅ Run completed: r-dm (foo)";
    await until(() => titled(harness, dm, title).length > 0, "the DM");
    await harness.services.outboxSender.drain();
    await harness.services.outboxSender.drain();
    expect(titled(harness, dm, title)).toHaveLength(1);
    expect(titled(harness, harness.fake.ids.channel, title)).toHaveLength(0);
    const opened = harness.fake.calls.filter((c) => c.method === "POST" && c.path === "/users/@me/channels");
    expect(opened.map((c) => (c.body as { recipient_id: string }).recipient_id)).toEqual([IDS.alice]);

    // Bob allows no DMs from server members: Discord refuses the post (50007), the notice goes to the run's thread.
    harness.fake.turnOffDms(IDS.bob);
    runs.start("r-bob", harness.channel, IDS.bob, thread);
    runs.end("r-bob", "failed");
    const failed = "❌ Run failed: r-bob (foo)";
    await until(() => titled(harness, harness.fake.ids.channel, failed).length === 1, "the fallback");
    await harness.services.outboxSender.drain();
    expect(titled(harness, harness.fake.ids.channel, failed)).toHaveLength(1);
    const refused = harness.fake.calls.filter((c) => c.status === 403 && c.path.endsWith("/messages"));
    expect(refused.map((c) => (c.response as { code: number }).code)).toEqual([50007]);
    const status = await harness.fake.slash("status", { run: "r-bob" }).callback();
    const said = JSON.stringify(embedsOf(status));
    expect(said).toContain("Cannot send messages to this user (50007)");
    expect(said.match(/50007/g)).toHaveLength(1);
  });
});

// Mentions of the bot (hint, chat mode, "/rl" text) and post() to channels, threads and anchor messages, with its nonce.
import { REST, Routes } from "discord.js";
import { describe, expect, it } from "vitest";
import type { CommandContext } from "../../commands/types.ts";
import { ALICE, BOB, IDS } from "../fakes/discord-gateway.ts";
import { bodyOf, embedsOf, harnessPerTest, replyTo } from "./harness.ts";

const start = harnessPerTest();

describe("mentions", () => {
  it("answers a mention with a hint listing the /rl commands while chat mode has no LLM, ignoring other messages", async () => {
    const h = await start();
    h.fake.say(BOB, "just chatting", { mentionBot: false });
    const asked = h.fake.say(ALICE, `<@${IDS.bot}> what can you do?`);
    const reply = await replyTo(h, String(asked["id"]));
    expect(String(embedsOf(reply)[0]?.["description"])).toContain("LLM\\_BASE\\_URL and LLM\\_MODEL");
    expect(JSON.stringify(embedsOf(reply))).toContain("/rl help");
    expect(bodyOf(reply)["allowed_mentions"]).toMatchObject({ parse: [] });
    const replies = h.fake.calls.filter((c) => c.method === "POST" && c.path === `/channels/${IDS.channel}/messages`);
    expect(replies.map((c) => (bodyOf(c)["message_reference"] as { message_id: string }).message_id)).toEqual([
      asked["id"],
    ]);
  });

  it("hands the text (without the mention) to chat mode, as the author", async () => {
    const seen: Array<{ text: string; ctx: CommandContext }> = [];
    const h = await start({
      adapter: {
        chat: async (text, ctx) => {
          seen.push({ text, ctx });
          return { title: "Chat", text: `You said: ${text}` };
        },
      },
    });
    const asked = h.fake.say(ALICE, `<@${IDS.bot}> how is training going?`);
    const reply = await replyTo(h, String(asked["id"]));
    expect(embedsOf(reply)[0]?.["description"]).toBe("You said: how is training going?");
    expect(seen[0]?.text).toBe("how is training going?");
    expect(seen[0]?.ctx).toMatchObject({
      via: "chat",
      channel: h.channel,
      user: { id: IDS.alice, roles: [IDS.operatorsRole, "operators"] },
    });
  });

  it("runs '/rl ...' text after a mention as a command", async () => {
    const h = await start();
    const asked = h.fake.say(ALICE, `<@${IDS.bot}> /rl envs`);
    expect(embedsOf(await replyTo(h, String(asked["id"])))[0]?.["title"]).toBe("Environments (1)");
  });
});

describe("post", () => {
  it("posts a reply to a channel and anchors a run reply to the new message", async () => {
    const h = await start();
    const { id } = await h.adapter.post(
      { channel: h.channel },
      { title: "Run r7 started", delivery: { anchorRunId: "r7" } },
    );
    expect(h.fake.message(id)?.["channel_id"]).toBe(IDS.channel);
    const post = h.fake.calls.find((c) => c.method === "POST" && c.path === `/channels/${IDS.channel}/messages`);
    expect(embedsOf(post!)[0]?.["title"]).toBe("Run r7 started");
    expect(await h.anchored("r7")).toEqual({ runId: "r7", channel: h.channel, id });
    // The run's thread is started from the message, named after it.
    expect(h.fake.message(id)?.["thread"]).toMatchObject({ id, name: "Run r7 started" });
  });

  it("posts into a thread", async () => {
    const h = await start();
    const { id } = await h.adapter.post({ channel: h.channel, thread: IDS.thread }, { title: "Step 10" });
    expect(h.fake.message(id)?.["channel_id"]).toBe(IDS.thread);
  });

  it("starts the message's thread when the 'thread' is a message id without one", async () => {
    const h = await start();
    const anchor = await h.adapter.post({ channel: h.channel }, { title: "Run r8 started" });
    const { id } = await h.adapter.post({ channel: h.channel, thread: anchor.id }, { title: "Step 10" });
    expect(h.fake.message(id)?.["channel_id"]).toBe(anchor.id);
    expect(h.fake.message(anchor.id)?.["thread"]).toMatchObject({ id: anchor.id, name: "Run r8 started" });
  });

  it("answers the anchor message when Discord refuses it a thread", async () => {
    const h = await start();
    const anchor = await h.adapter.post({ channel: h.channel }, { title: "Run r8 started" });
    h.fake.fault({ method: "POST", path: /\/threads$/, status: 403 });
    const { id } = await h.adapter.post({ channel: h.channel, thread: anchor.id }, { title: "Step 10" });
    const posted = h.fake.message(id);
    expect(posted?.["channel_id"]).toBe(IDS.channel);
    expect(posted?.["message_reference"]).toMatchObject({ message_id: anchor.id });
  });

  it("gives the same outbox message the same nonce, and the fake keeps Discord's enforce_nonce rule (per author and channel)", async () => {
    const h = await start();
    const delivery = { key: "notice:r9:completed" };
    const first = await h.adapter.post({ channel: h.channel }, { title: "Run r9 completed" }, delivery);
    const again = await h.adapter.post({ channel: h.channel }, { title: "Run r9 completed" }, delivery);
    expect(again.id).toBe(first.id);
    const [a, b] = h.fake.calls
      .filter((c) => c.method === "POST" && c.path === `/channels/${IDS.channel}/messages`)
      .map(bodyOf);
    expect(a).toMatchObject({ enforce_nonce: true, nonce: b?.["nonce"] });
    expect(String(a?.["nonce"]).length).toBeLessThanOrEqual(25);
    expect(h.fake.message(first.id)?.["nonce"]).toBe(a?.["nonce"]);
    // Another key, or the same key in another channel (the thread), is another message.
    const other = await h.adapter.post(
      { channel: h.channel },
      { title: "Run r9 completed" },
      { key: "notice:r10:completed" },
    );
    const elsewhere = await h.adapter.post(
      { channel: h.channel, thread: IDS.thread },
      { title: "Run r9 completed" },
      delivery,
    );
    expect(new Set([first.id, other.id, elsewhere.id]).size).toBe(3);
    // Without a key (a command's answer) there is no nonce, and two posts are two messages.
    const plain = [
      await h.adapter.post({ channel: h.channel }, { title: "Hello" }),
      await h.adapter.post({ channel: h.channel }, { title: "Hello" }),
    ];
    expect(plain[0]?.id).not.toBe(plain[1]?.id);
  });

  it("the fake refuses a nonce longer than Discord's 25 characters", async () => {
    const h = await start();
    const rest = new REST({ api: h.fake.apiUrl }).setToken(h.fake.token);
    await expect(
      rest.post(Routes.channelMessages(IDS.channel), {
        body: { content: "x", nonce: "n".repeat(26), enforce_nonce: true },
      }),
    ).rejects.toMatchObject({ code: 50035 });
  });
});

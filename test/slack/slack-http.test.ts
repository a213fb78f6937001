// End to end over HTTP with the real Bolt app: signed slash commands, acks, answers via response_url and chat.postMessage.
import { afterEach, describe, expect, it } from "vitest";
import { blockKitProblems } from "../fakes/slack-block-kit.ts";
import { CHANNEL, signedHeaders, slashCommand } from "./slack-payloads.ts";
import { BOT_TOKEN, SIGNING_SECRET, startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";
import { createTestCommands } from "./test-commands.ts";

let h: SlackHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

const posts = (harness: SlackHarness) => harness.fake.calls.filter((c) => c.method === "chat.postMessage");

describe("Slack over HTTP: /rl", () => {
  it("acks the slash command before the command's answer exists, then posts the answer", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    const res = await h.slash(slashCommand({ text: "wait", responseUrl: h.fake.responseUrl() }));
    // The command cannot answer until the gate opens, so this 200 is the ack alone.
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    expect(posts(h)).toHaveLength(0);
    expect(h.fake.responses.items).toHaveLength(0);

    t.gate.open();
    const post = await h.fake.waitForCall("chat.postMessage");
    expect(post.ok).toBe(true);
    expect(post.token).toBe(BOT_TOKEN);
    expect(post.body.channel).toBe(CHANNEL);
    expect(post.body.text).toBe("Waited\nThe gate opened.");
    expect(blockKitProblems(post.body.blocks)).toEqual([]);
    expect(post.body.blocks).toEqual([
      { type: "header", text: { type: "plain_text", text: "Waited", emoji: true } },
      { type: "section", text: { type: "mrkdwn", text: "The gate opened.", verbatim: true } },
      { type: "context", elements: [{ type: "mrkdwn", text: "<@U0ALICE> ran `/rl wait`", verbatim: true }] },
    ]);
  });

  it("posts a public reply with fields and escapes what Slack would read as markup", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    await h.slash(slashCommand({ text: "echo hello <world> & all", responseUrl: h.fake.responseUrl() }));
    const post = await h.fake.waitForCall("chat.postMessage");
    expect(post.body.text).toBe("Echo\nhello &lt;world&gt; &amp; all");
    expect(textOf(post.body.blocks)).toContain("*Asked by*\nalice");
    expect(blockKitProblems(post.body.blocks)).toEqual([]);
  });

  it("shows a slow command's progress in a public message that becomes its answer", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    await h.slash(slashCommand({ text: "crunch numbers", responseUrl: h.fake.responseUrl() }));
    const working = await h.fake.waitForCall("chat.postMessage");
    expect(working.body.text).toBe("Working on /rl crunch…");
    const final = await h.fake.waitForCall("chat.update", (c) => String(c.body.text).startsWith("Crunched"));
    const ts = String(final.body.ts);
    const updates = h.fake.calls.filter((c) => c.method === "chat.update").map((c) => c.body.text);
    // Progress edits come first and the answer last; nothing overwrites it afterwards.
    expect(updates.at(-1)).toBe("Crunched numbers");
    expect(updates.slice(0, -1).every((u) => String(u).startsWith("/rl crunch: "))).toBe(true);
    expect(updates).toContain("/rl crunch: almost done");
    expect(h.fake.messages.get(`${CHANNEL}:${ts}`)?.text).toBe("Crunched numbers");
    expect(textOf(final.body.blocks)).toContain("*Result*\n42");
    expect(h.fake.responses.items).toHaveLength(0);
  });

  it("removes the progress message when a slow command fails, and tells only the person who asked", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    const url = h.fake.responseUrl();
    await h.slash(slashCommand({ text: "crunch fail", responseUrl: url }));
    const response = await h.fake.waitForResponse();
    expect(response.body).toMatchObject({
      response_type: "ephemeral",
      text: "Could not do that\nNothing called fail to crunch.",
    });
    const working = h.fake.calls.items.find((c) => c.method === "chat.postMessage");
    const removed = await h.fake.waitForCall("chat.delete");
    expect([...h.fake.messages.values()].filter((m) => !m.deleted)).toEqual([]);
    expect(working?.body.text).toBe("Working on /rl crunch…");
    expect(removed.ok).toBe(true);
  });

  it("answers a bad signature or a stale timestamp with 401 and runs nothing", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    const body = new URLSearchParams(slashCommand({ text: "echo hi", responseUrl: h.fake.responseUrl() })).toString();
    const form = "application/x-www-form-urlencoded";
    const forged = await h.raw(body, signedHeaders("not-the-secret", body, form));
    expect(forged.status).toBe(401);
    const stale = await h.raw(body, signedHeaders(SIGNING_SECRET, body, form, Math.floor(Date.now() / 1000) - 3600));
    expect(stale.status).toBe(401);
    // A correctly signed request still works, and it is the only thing that ran.
    await h.slash(slashCommand({ text: "echo signed", responseUrl: h.fake.responseUrl() }));
    await h.fake.waitForCall("chat.postMessage");
    expect(posts(h).map((c) => c.body.text)).toEqual(["Echo\nsigned"]);
  });

  it("answers a usage error privately with that command's usage", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    await h.slash(slashCommand({ text: "echo", responseUrl: h.fake.responseUrl() }));
    const response = await h.fake.waitForResponse();
    expect(response.body.response_type).toBe("ephemeral");
    expect(response.body.replace_original).toBe(false);
    expect(textOf(response.body.blocks)).toContain("Usage: /rl echo &lt;words...&gt;");
    expect(response.body.text).toMatch(/^Usage\nMissing &lt;words&gt;\./);
    expect(blockKitProblems(response.body.blocks)).toEqual([]);
    expect(posts(h)).toHaveLength(0);
  });

  it("suggests the nearest command for a typo", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    await h.slash(slashCommand({ text: "ehco hi", responseUrl: h.fake.responseUrl() }));
    const response = await h.fake.waitForResponse();
    expect(response.body.text).toContain("Did you mean /rl echo?");
  });

  it("lists the commands for /rl and /rl help (the real registry)", async () => {
    h = await startSlackHarness();
    await h.slash(slashCommand({ text: "", responseUrl: h.fake.responseUrl() }));
    await h.slash(slashCommand({ text: "help", responseUrl: h.fake.responseUrl() }));
    const [bare, help] = [
      await h.fake.waitForResponse((r) => r.id === "r1"),
      await h.fake.waitForResponse((r) => r.id === "r2"),
    ];
    for (const r of [bare, help]) {
      expect(r.body.response_type).toBe("ephemeral");
      expect(r.body.text).toBe("rl-chatops commands");
      const text = textOf(r.body.blocks);
      expect(text).toContain("```");
      expect(text).toContain("/rl select &lt;name&gt;");
      expect(text).toContain("/rl help");
    }
  });

  it("never posts a secret: the bot token in a reply is redacted", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    await h.slash(slashCommand({ text: "leak", responseUrl: h.fake.responseUrl() }));
    const post = await h.fake.waitForCall("chat.postMessage");
    expect(JSON.stringify(post.body)).not.toContain(BOT_TOKEN);
    expect(post.body.text).toContain("[redacted]");
  });

  it("posts a reply past every Block Kit limit as a valid message", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    await h.slash(slashCommand({ text: "big", responseUrl: h.fake.responseUrl() }));
    const post = await h.fake.waitForCall("chat.postMessage");
    // The fake answers invalid_blocks for anything Slack would refuse.
    expect(post.ok).toBe(true);
    expect((post.body.blocks as unknown[]).length).toBeLessThanOrEqual(50);
  });
});

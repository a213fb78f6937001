// Personal reads on Slack through the real Bolt app: answered ephemerally through response_url, turned in place there
// (an ephemeral message cannot be chat.update'd), and posted to the channel by "Post to channel", naming who shared it.
import { afterEach, describe, expect, it } from "vitest";
import { bigFieldNames, writeBigEnvironment } from "../helpers/big-environment.ts";
import { ALICE, BOB, CHANNEL, TEAM, buttonClick, slashCommand } from "./slack-payloads.ts";
import { BOT_TOKEN, buttonsOf, startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";
import { postToChannel, privateAnswer } from "./slack-private-answer.ts";

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const CHANNEL_KEY = { platform: "slack", workspace: TEAM, channel: CHANNEL };
const asker = { channel: CHANNEL, user: ALICE.id };

/** The channel as everyone sees it: conversations.history, which never holds an ephemeral message. */
async function history(harness: SlackHarness): Promise<Array<{ ts: string; text?: string }>> {
  const res = await fetch(`${harness.fake.apiUrl}conversations.history`, {
    method: "POST",
    headers: { authorization: `Bearer ${BOT_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ channel: CHANNEL }),
  });
  return ((await res.json()) as { messages: Array<{ ts: string; text?: string }> }).messages;
}

function insertRuns(harness: SlackHarness, n: number): void {
  for (let i = 0; i < n; i++)
    harness.services.runs.insert({
      id: `r${String(i).padStart(3, "0")}s`,
      channel: CHANNEL_KEY,
      environment: "gsm8k",
      config: {},
      status: "completed",
      createdBy: BOB.id,
    });
}

describe("Slack personal reads", () => {
  it("answers /rl runs privately, turns to older runs in place, and posts the list to the channel when asked", async () => {
    h = await startSlackHarness();
    insertRuns(h, 45);
    await h.slash(slashCommand({ text: "runs", responseUrl: h.fake.responseUrl(asker) }));
    const answer = await privateAnswer(h, "Runs: 1–20 of 45 (page 1 of 3)");
    expect(buttonsOf(answer.body.blocks).map((b) => b.text.text)).toEqual(["Older ▶", "Post to channel"]);
    const shown = h.fake.ephemerals.items[0]!;
    expect(shown.user).toBe(ALICE.id);
    // Not in the channel for anyone else, and no public "Working on…" either.
    expect(await history(h)).toEqual([]);
    expect(h.fake.calls.filter((c) => c.method === "chat.postMessage")).toEqual([]);
    // chat.update cannot reach an ephemeral message (Slack's message_not_found).
    const update = await fetch(`${h.fake.apiUrl}chat.update`, {
      method: "POST",
      headers: { authorization: `Bearer ${BOT_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ channel: CHANNEL, ts: shown.ts, text: "x" }),
    });
    expect(await update.json()).toMatchObject({ ok: false, error: "message_not_found" });

    // Older: the clicked private answer is replaced through its response_url.
    const older = buttonsOf(answer.body.blocks).find((b) => b.text.text.startsWith("Older"))!;
    await h.click(
      buttonClick({
        button: older,
        ephemeral: true,
        messageTs: shown.ts,
        responseUrl: h.fake.responseUrl({ ...asker, messageTs: shown.ts }),
      }),
    );
    const second = await h.fake.waitForResponse((r) => String(r.body.text).includes("21–40 of 45"));
    expect(second.body).toMatchObject({ response_type: "ephemeral", replace_original: true });
    expect(h.fake.ephemerals.items).toHaveLength(1);
    expect(String(shown.text)).toContain("21–40 of 45 (page 2 of 3)");

    // Post to channel: the same page for everyone, naming who shared it; the private copy goes.
    const post = await postToChannel(h, second);
    expect(post.ok).toBe(true);
    const text = textOf(post.body.blocks);
    expect(String(post.body.text)).toContain("Runs: 21–40 of 45 (page 2 of 3)");
    expect(text).toContain(`Shared by <@${ALICE.id}>`);
    expect(buttonsOf(post.body.blocks).map((b) => b.text.text)).toEqual(["◀ Newer", "Older ▶"]);
    await h.fake.waitForResponse((r) => r.body.delete_original === true);
    expect(shown.deleted).toBe(true);
    expect((await history(h)).map((m) => m.text)).toEqual([post.body.text]);
  });

  it("posts a page of a paged config to the channel, whose pages then turn for everyone with chat.update", async () => {
    const { root, envDir } = writeBigEnvironment();
    h = await startSlackHarness({ env: { RL_TRAINING_ROOT: root, RL_ENVIRONMENTS_DIR: envDir } });
    await h.services.env.selectEnvironment(CHANNEL_KEY, "big");
    await h.slash(slashCommand({ text: "config", responseUrl: h.fake.responseUrl(asker) }));
    const answer = await privateAnswer(h, "Config of big");
    const pageCount = Number(/page 1 of (\d+)/.exec(String(answer.body.text))?.[1]);
    expect(pageCount).toBeGreaterThan(2);
    const post = await postToChannel(h, answer);
    expect(String(post.body.text)).toContain(`(page 1 of ${pageCount})`);
    expect(buttonsOf(post.body.blocks).map((b) => b.text.text)).toEqual(["Next ▶"]);
    const ts = String((await history(h))[0]?.ts);
    const seen = new Set([...textOf(post.body.blocks).matchAll(/knob_\d\d/g)].map((m) => m[0]));
    let blocks = post.body.blocks;
    for (let page = 2; page <= pageCount; page++) {
      const next = buttonsOf(blocks).find((b) => b.text.text.startsWith("Next"))!;
      await h.click(buttonClick({ button: next, user: BOB, messageTs: ts, responseUrl: h.fake.responseUrl() }));
      const updated = await h.fake.waitForCall("chat.update", (c) =>
        String(c.body.text).includes(`(page ${page} of ${pageCount})`),
      );
      expect(updated.ok).toBe(true);
      blocks = updated.body.blocks;
      // Every page keeps the line naming who shared it.
      expect(textOf(blocks)).toContain(`Shared by <@${ALICE.id}>`);
      for (const m of textOf(blocks).matchAll(/knob_\d\d/g)) seen.add(m[0]);
    }
    expect([...seen].sort()).toEqual(bigFieldNames());
  });

  it("keeps Slack's response_url rules: five uses, within 30 minutes", async () => {
    h = await startSlackHarness();
    const url = h.fake.responseUrl(asker);
    const say = () => fetch(url, { method: "POST", body: JSON.stringify({ text: "hi" }) });
    for (let i = 0; i < 5; i++) expect((await say()).status).toBe(200);
    expect((await say()).status).toBe(404);
    const later = h.fake.responseUrl(asker);
    h.fake.advance(30 * 60_000 + 1);
    expect((await fetch(later, { method: "POST", body: JSON.stringify({ text: "hi" }) })).status).toBe(404);
  });
});

describe("Slack reads of environments, checkpoints, budgets and notice routes", () => {
  it("answers each privately with a Post to channel button, and a budget set in public", async () => {
    h = await startSlackHarness({ env: { RL_ADMINS: `slack:${ALICE.id}` } });
    h.services.runs.insert({
      id: "r0ckpts1",
      channel: CHANNEL_KEY,
      environment: "gsm8k",
      config: {},
      status: "completed",
      createdBy: ALICE.id,
    });
    const reads: Array<[string, string]> = [
      ["envs", "s ("],
      ["checkpoints r0ckpts1", "r0ckpts1"],
      ["budget", "No budgets here"],
      ["notify", "Where notices go"],
    ];
    for (const [text, title] of reads) {
      await h.slash(slashCommand({ text, responseUrl: h.fake.responseUrl(asker) }));
      const answer = await privateAnswer(h, title);
      expect(
        buttonsOf(answer.body.blocks).map((b) => b.text.text),
        text,
      ).toContain("Post to channel");
    }
    expect(await history(h)).toEqual([]);
    // Setting a budget is the team's business: it is posted for everyone.
    await h.slash(slashCommand({ text: "budget set steps 40000 per week", responseUrl: h.fake.responseUrl(asker) }));
    const set = await h.fake.waitForCall("chat.postMessage", (c) => String(c.body.text).startsWith("Budget set"));
    expect(set.body.channel).toBe(CHANNEL);
  });
});

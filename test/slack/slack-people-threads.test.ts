// People and threads on Slack: who started a run shows by name without a ping (only the asker being answered is
// mentioned), and a run's chart goes beside its answer.
import { afterEach, describe, expect, it } from "vitest";
import { personRef } from "../../src/reply.ts";
import { ALICE, BOB, CHANNEL, TEAM, slashCommand } from "./slack-payloads.ts";
import { postToChannel, privateAnswer } from "./slack-private-answer.ts";
import { startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";
import { createTestCommands } from "./test-commands.ts";

let h: SlackHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

const CHANNEL_KEY = { platform: "slack", workspace: TEAM, channel: CHANNEL };
const RUN_THREAD = "1700000000.000777";

describe("Slack people and threads", () => {
  it("lists runs naming who started each, without a mention; only the asker answered is mentioned", async () => {
    h = await startSlackHarness();
    h.fake.addUser({ id: BOB.id, name: "bob", displayName: "Bob B" });
    h.services.runs.insert({
      id: "r0people",
      channel: CHANNEL_KEY,
      environment: "gsm8k",
      config: {},
      status: "completed",
      createdBy: BOB.id,
    });
    h.services.runs.insert({
      id: "r1people",
      channel: CHANNEL_KEY,
      environment: "gsm8k",
      config: {},
      status: "completed",
      createdBy: "U0GONE",
    });
    await h.slash(slashCommand({ text: "runs", responseUrl: h.fake.responseUrl() }));
    const answer = await privateAnswer(h, "Runs");
    const mine = textOf(answer.body.blocks);
    expect(mine).toContain("· Bob B ·");
    // Shown to the asker alone: nobody is mentioned.
    expect(mine).not.toMatch(/<@U\w+>/);
    const post = await postToChannel(h, answer);
    const shown = textOf(post.body.blocks);
    expect(shown).toContain("· Bob B ·");
    // Someone Slack no longer knows: the id as text, still no ping.
    expect(shown).toContain("· U0GONE ·");
    expect(shown).not.toContain(`<@${BOB.id}>`);
    expect(shown).not.toContain("<@U0GONE>");
    // The footer names who shared it, and that is the one mention.
    expect(shown.match(/<@U\w+>/g)).toEqual([`<@${ALICE.id}>`]);
    expect(
      h.fake.calls
        .filter((c) => c.method === "users.info")
        .map((c) => c.body.user)
        .sort(),
    ).toEqual([ALICE.id, BOB.id, "U0GONE"].sort());
  });

  it("names the starter in a notice without a ping, and looks each person up once", async () => {
    h = await startSlackHarness();
    h.fake.addUser({ id: BOB.id, name: "bob" });
    const reply = { title: "Run r2 started", fields: [{ label: "Started by", value: personRef(BOB.id) }] };
    const first = await h.adapter.post({ channel: CHANNEL_KEY }, reply);
    await h.adapter.post({ channel: CHANNEL_KEY }, reply);
    const shown = textOf(h.fake.messages.get(`${CHANNEL}:${first.id}`)?.blocks);
    expect(shown).toContain("*Started by*\nbob");
    expect(shown).not.toContain("<@");
    expect(h.fake.calls.filter((c) => c.method === "users.info")).toHaveLength(1);
  });

  it("puts the chart of an answer about a run beside the answer, not into the run's thread", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    h.services.runs.insert({
      id: "r0thread",
      channel: CHANNEL_KEY,
      thread: RUN_THREAD,
      environment: "gsm8k",
      config: {},
      status: "completed",
      createdBy: ALICE.id,
    });
    await h.slash(slashCommand({ text: "plot --run r0thread", responseUrl: h.fake.responseUrl() }));
    const upload = await h.fake.uploads.waitFor();
    // The answer is at the channel's top level, so its picture is too, right after it.
    expect(upload).toMatchObject({ channel: CHANNEL, isPng: true });
    expect(upload.thread_ts).toBeUndefined();
    const answer = h.fake.calls.items.find((c) => c.method === "chat.postMessage" && c.body.text === "Results");
    expect(answer?.body.thread_ts).toBeUndefined();
    const order = h.fake.calls.items.map((c) => c.method);
    expect(order.indexOf("chat.postMessage")).toBeLessThan(order.indexOf("files.completeUploadExternal"));
  });
});

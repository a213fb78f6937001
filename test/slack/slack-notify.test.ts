// /rl notify through the fake Slack with the real Bolt: a DM notice goes through conversations.open and arrives once,
// "failures only" posts the failure and nothing for a completed run, and a DM Slack refuses is shown once in
// /rl status and falls back to the run's thread.
import { afterEach, describe, expect, it } from "vitest";
import { runMover, until } from "../notify/notify-kit.ts";
import { ALICE, BOB, CHANNEL, TEAM } from "./slack-payloads.ts";
import { startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";
import { typeAs } from "./slack-waits.ts";

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const KEY = { platform: "slack", workspace: TEAM, channel: CHANNEL };
const THREAD = "1700000000.000042";

const messagesIn = (harness: SlackHarness, channel: string, title: string) =>
  [...harness.fake.messages.values()].filter((m) => m.channel === channel && (m.text ?? "").includes(title));

describe("/rl notify on Slack", () => {
  it("sends a run's completion to its starter's DM once, opened with conversations.open, and not to the channel", async () => {
    const harness = await startSlackHarness({ env: { RL_OPERATORS: `slack:${ALICE.id}` } });
    h = harness;
    harness.fake.addUser({ id: ALICE.id, name: "alice" });
    const set = (await typeAs(harness, ALICE, "notify completed,failed dm --user me")).all;
    expect(set).toContain("completed, failed of runs alice starts here go to a DM to whoever started the run");
    const shown = (await typeAs(harness, ALICE, "notify")).all;
    expect(shown).toContain("your runs: a DM to whoever started the run");

    const runs = runMover(harness.services);
    runs.start("r-dm", KEY, ALICE.id, THREAD);
    runs.end("r-dm", "completed");
    await until(() => harness.fake.dmChannelOf(ALICE.id) !== undefined, "the DM to be opened");
    const dm = harness.fake.dmChannelOf(ALICE.id)!;
    await until(() => messagesIn(harness, dm, "Run completed: r-dm").length > 0, "the DM");
    // More passes change nothing: it was sent once, and nothing went to the channel or the run's thread.
    await harness.services.outboxSender.drain();
    await harness.services.outboxSender.drain();
    expect(messagesIn(harness, dm, "Run completed: r-dm")).toHaveLength(1);
    expect(messagesIn(harness, CHANNEL, "Run completed: r-dm")).toHaveLength(0);
    const opens = harness.fake.calls.filter((c) => c.method === "conversations.open");
    expect(opens.map((c) => [c.body.users, c.ok])).toEqual([[ALICE.id, true]]);

    // Bob's runs in the same channel still go to their thread: Alice's route is hers.
    runs.start("r-bob", KEY, BOB.id, THREAD);
    runs.end("r-bob", "completed");
    await until(() => messagesIn(harness, CHANNEL, "Run completed: r-bob").length === 1, "Bob's notice");
    expect(messagesIn(harness, CHANNEL, "Run completed: r-bob")[0]!.thread_ts).toBe(THREAD);
  });

  it("failures only: a completed run posts nothing, a failed one posts its failure in the run's thread", async () => {
    const harness = await startSlackHarness({ env: { RL_OPERATORS: `slack:${ALICE.id}` } });
    h = harness;
    const set = (await typeAs(harness, ALICE, "notify failures only")).all;
    expect(set).toContain("Failures only for this channel");

    const runs = runMover(harness.services);
    runs.start("r-ok", KEY, ALICE.id, THREAD);
    runs.end("r-ok", "completed");
    runs.start("r-bad", KEY, ALICE.id, THREAD);
    runs.end("r-bad", "failed");
    await until(() => messagesIn(harness, CHANNEL, "Run failed: r-bad").length === 1, "the failure");
    await harness.services.outboxSender.drain();
    expect(messagesIn(harness, CHANNEL, "Run failed: r-bad")[0]!.thread_ts).toBe(THREAD);
    expect([...harness.fake.messages.values()].filter((m) => (m.text ?? "").includes("r-ok"))).toEqual([]);
    expect(harness.services.outbox.pending()).toBe(0);
  });

  it("a DM Slack refuses (cannot_dm_bot) falls back to the run's thread and is said once in /rl status", async () => {
    const harness = await startSlackHarness({ env: { RL_OPERATORS: `slack:${ALICE.id}` } });
    h = harness;
    const BOT = "U0OTHERBOT";
    harness.fake.addUser({ id: BOT, name: "ci-bot", bot: true });
    await typeAs(harness, ALICE, "notify completed,failed dm");

    const runs = runMover(harness.services);
    runs.start("r-bot", KEY, BOT, THREAD);
    runs.end("r-bot", "completed");
    await until(() => messagesIn(harness, CHANNEL, "Run completed: r-bot").length === 1, "the fallback");
    await harness.services.outboxSender.drain();
    const [fallback] = messagesIn(harness, CHANNEL, "Run completed: r-bot");
    expect(fallback!.thread_ts).toBe(THREAD);
    expect(textOf(fallback!.blocks)).toContain("cannot_dm_bot");
    const opens = harness.fake.calls.filter((c) => c.method === "conversations.open");
    expect(opens.map((c) => c.error)).toEqual(["cannot_dm_bot"]);

    const status = (await typeAs(harness, ALICE, "status r-bot")).all;
    expect(status).toContain("not delivered");
    expect(status.match(/cannot_dm_bot/g)).toHaveLength(1);
    expect(status).toContain("a bot, which cannot be sent a DM");
  });

  it("refuses an unknown kind or destination with the accepted forms", async () => {
    const harness = await startSlackHarness({ env: { RL_OPERATORS: `slack:${ALICE.id}` } });
    h = harness;
    expect((await typeAs(harness, ALICE, "notify finished dm")).all).toContain(
      '"finished" is not a kind of notice: use started, failed, completed, stopped, alerts, digests, checkpoint',
    );
    expect((await typeAs(harness, ALICE, "notify failed pigeon")).all).toContain(
      '"pigeon" is not a destination: use thread, channel, #channel (or a channel mention), dm or off',
    );
    expect((await typeAs(harness, ALICE, "notify digests dm")).all).toContain("Digests cover every active run");
    expect((await typeAs(harness, BOB, "notify failures only")).all).toMatch(/not allowed|may not|can't|cannot/i);
  });
});

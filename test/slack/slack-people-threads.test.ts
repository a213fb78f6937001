// People and threads on Slack: who started a run shows as a user mention, and a run's chart goes into the run's thread.
import { afterEach, describe, expect, it } from "vitest";
import { ALICE, CHANNEL, TEAM, slashCommand } from "./slack-payloads.ts";
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
  it("lists runs with the person who started each as a user mention", async () => {
    h = await startSlackHarness();
    h.services.runs.insert({ id: "r0people", channel: CHANNEL_KEY, environment: "gsm8k", config: {}, status: "completed", createdBy: ALICE.id });
    await h.slash(slashCommand({ text: "runs", responseUrl: h.fake.responseUrl() }));
    const post = await h.fake.waitForCall("chat.postMessage", (c) => String(c.body.text).startsWith("Runs"));
    expect(textOf(post.body.blocks)).toContain(`· <@${ALICE.id}> ·`);
  });

  it("puts the chart of an answer about a run into the run's thread", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    h.services.runs.insert({ id: "r0thread", channel: CHANNEL_KEY, thread: RUN_THREAD, environment: "gsm8k", config: {}, status: "completed", createdBy: ALICE.id });
    await h.slash(slashCommand({ text: "plot --run r0thread", responseUrl: h.fake.responseUrl() }));
    const upload = await h.fake.uploads.waitFor();
    expect(upload).toMatchObject({ channel: CHANNEL, thread_ts: RUN_THREAD, isPng: true });
  });
});

// Notices through the real Bolt app carry their context: the WandB group page, who started the run, its duration, logs command, final reward and chart.
import { afterEach, describe, expect, it } from "vitest";
import { noticeReply } from "../../src/training/lifecycle/run-notices.ts";
import { ALICE, CHANNEL, TEAM } from "./slack-payloads.ts";
import { startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";

let h: SlackHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

const CHANNEL_KEY = { platform: "slack", workspace: TEAM, channel: CHANNEL };
const WANDB = { appUrl: "https://wandb.ai", entity: "lab" };
const HISTORY = Array.from({ length: 12 }, (_, i) => ({ step: i + 1, value: 0.1 + i * 0.07 }));

describe("Slack notice links and context", () => {
  it("links the group page, and names the starter, the duration and the logs command", async () => {
    h = await startSlackHarness();
    h.fake.addUser({ id: ALICE.id, name: ALICE.name });
    const run = h.services.runs.insert({
      id: "r0notice",
      channel: CHANNEL_KEY,
      environment: "gsm8k",
      config: {},
      status: "running",
      createdBy: ALICE.id,
    });
    const ended = h.services.runs.update(run.id, {
      status: "completed",
      startedAt: 1_000_000,
      endedAt: 1_000_000 + 754_000,
      wandbProject: "atropos",
      wandbGroup: "gsm8k-r0notice",
    });
    const { id: ts } = await h.adapter.post(
      { channel: CHANNEL_KEY },
      noticeReply({ kind: "completed", run: ended, message: "Training finished." }, (s) => s, WANDB),
    );
    const text = textOf(h.fake.messages.get(`${CHANNEL}:${ts}`)?.blocks);
    expect(text).toContain("<https://wandb.ai/lab/atropos/groups/gsm8k-r0notice|WandB group>");
    // Named, not mentioned: a notice does not ping the person who started the run.
    expect(text).toContain(`*Started by*\n${ALICE.name}`);
    expect(text).not.toContain(`<@${ALICE.id}>`);
    expect(text).toContain("12m 34s");
    expect(text).toContain("/rl logs r0notice");

    // The run's wandb_run_name is only the start of the WandB run's display name, not its id: no run page is guessed from it.
    const named = h.services.runs.update(run.id, { wandbRunName: "gsm8k-r0notice" });
    const second = await h.adapter.post(
      { channel: CHANNEL_KEY },
      noticeReply({ kind: "completed", run: named, message: "Training finished." }, (s) => s, WANDB),
    );
    const secondText = textOf(h.fake.messages.get(`${CHANNEL}:${second.id}`)?.blocks);
    expect(secondText).toContain("<https://wandb.ai/lab/atropos/groups/gsm8k-r0notice|WandB group>");
    expect(secondText).not.toContain("/runs/");
  });

  it("the completed notice shows the final reward with a sparkline, and its PNG chart goes into the run's thread", async () => {
    h = await startSlackHarness();
    const anchor = await h.adapter.post({ channel: CHANNEL_KEY }, { title: "Run r1chart running" });
    const run = h.services.runs.insert({
      id: "r1chart",
      channel: CHANNEL_KEY,
      environment: "gsm8k",
      config: {},
      status: "running",
      createdBy: ALICE.id,
    });
    const ended = h.services.runs.update(run.id, {
      status: "completed",
      startedAt: 1_000_000,
      endedAt: 1_000_000 + 65_000,
      thread: anchor.id,
    });
    const reply = noticeReply(
      { kind: "completed", run: ended, message: "Training complete.", reward: { final: 0.87, history: HISTORY } },
      (s) => s,
      WANDB,
    );
    const { id: ts } = await h.adapter.post({ channel: CHANNEL_KEY, thread: anchor.id }, reply);

    const upload = await h.fake.uploads.waitFor();
    expect(upload).toMatchObject({
      channel: CHANNEL,
      thread_ts: anchor.id,
      filename: "reward.png",
      isPng: true,
      title: "Reward mean by step, run r1chart",
    });
    const posted = h.fake.messages.get(`${CHANNEL}:${ts}`);
    expect(posted?.thread_ts).toBe(anchor.id);
    const text = textOf(posted?.blocks);
    expect(text).toMatch(/\*Final reward\*\n0\.87/);
    expect(text).toContain("1m 5s");
    expect(text).toMatch(/Reward mean by step, run r1chart\*\n`[▁▂▃▄▅▆▇█]+`/);
  });
});

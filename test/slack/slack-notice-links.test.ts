// Notices through the real Bolt app carry their context: the WandB page (run, else group), who started the run, its duration and logs command.
import { afterEach, describe, expect, it } from "vitest";
import { noticeReply } from "../../src/digests/run-notices.ts";
import { ALICE, CHANNEL, TEAM } from "./slack-payloads.ts";
import { startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";

let h: SlackHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

const CHANNEL_KEY = { platform: "slack", workspace: TEAM, channel: CHANNEL };
const WANDB = { appUrl: "https://wandb.ai", entity: "lab" };

describe("Slack notice links and context", () => {
  it("links the group page when WandB has no run page yet, and names the starter, the duration and the logs command", async () => {
    h = await startSlackHarness();
    const run = h.services.runs.insert({ id: "r0notice", channel: CHANNEL_KEY, environment: "gsm8k", config: {}, status: "running", createdBy: ALICE.id });
    const ended = h.services.runs.update(run.id, { status: "completed", startedAt: 1_000_000, endedAt: 1_000_000 + 754_000, wandbProject: "atropos", wandbGroup: "gsm8k-r0notice" });
    const { ts } = await h.adapter.post({ channel: CHANNEL_KEY }, noticeReply({ kind: "completed", run: ended, message: "Training finished." }, (s) => s, WANDB));
    const text = textOf(h.fake.messages.get(`${CHANNEL}:${ts}`)?.blocks);
    expect(text).toContain("<https://wandb.ai/lab/atropos/groups/gsm8k-r0notice|WandB group>");
    expect(text).toContain(`<@${ALICE.id}>`);
    expect(text).toContain("12m 34s");
    expect(text).toContain("/rl logs r0notice");

    const named = h.services.runs.update(run.id, { wandbRunName: "abc123" });
    const second = await h.adapter.post({ channel: CHANNEL_KEY }, noticeReply({ kind: "completed", run: named, message: "Training finished." }, (s) => s, WANDB));
    expect(textOf(h.fake.messages.get(`${CHANNEL}:${second.ts}`)?.blocks)).toContain("<https://wandb.ai/lab/atropos/runs/abc123|WandB run>");
  });
});

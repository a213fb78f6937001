// A run of a trainer described by its manifest alone, through the fake Slack with the real Bolt: select, start,
// Confirm, and the completed notice in the run's thread with its steps, reward and final weights.
import { describe, expect, it } from "vitest";
import { TOY_ENV } from "../../helpers/toy-trainer.ts";
import { ALICE, CHANNEL, TEAM, buttonClick } from "../../slack/slack-payloads.ts";
import { buttonsOf, startSlackHarness } from "../../slack/slack-harness.ts";
import { closeDemoSlackAfterEach } from "../../slack/slack-demo.ts";
import { answered, answeredAt, posted, seen, text, type } from "../../slack/slack-waits.ts";

const keep = closeDemoSlackAfterEach();

describe("a manifest stack's run through Slack", () => {
  it("selects an entry, starts after Confirm, and posts the completed notice in the run's thread", async () => {
    const harness = keep(
      await startSlackHarness({ env: { ...TOY_ENV, RL_DEFAULT_ROLE: "read", RL_OPERATORS: `slack:${ALICE.id}` } }),
    );
    const { fake, services } = harness;
    await type(harness, "select toy");
    await answered(harness, (c) => text(c).startsWith("Selected toy"), "the selection");
    const channel = { platform: "slack", workspace: TEAM, channel: CHANNEL };
    await services.env.editConfig(channel, "iters", "8");
    await services.env.editConfig(channel, "pause", "0.1");

    const startUrl = await type(harness, "start");
    const prompt = await seen(harness, fake.waitForResponse(answeredAt(startUrl)), "the start prompt");
    expect(prompt.body).toMatchObject({ response_type: "ephemeral", text: "Start training toy?" });
    const [confirm] = buttonsOf(prompt.body.blocks);
    await harness.click(buttonClick({ button: confirm!, responseUrl: fake.responseUrl(), ephemeral: true }));
    const answer = await seen(
      harness,
      fake.waitForCall("chat.update", (c) => c.ok && /\): running\n/.test(text(c))),
      "the running answer",
    );
    const runId = /Run (\S+) \(toy\): running/.exec(text(answer))?.[1];
    if (!runId) throw new Error(`no run id in "${text(answer)}"`);
    const runTs = String(answer.body.ts);
    await seen(
      harness,
      harness.anchors.waitFor((a) => a.runId === runId),
      "the anchor",
    );
    expect(services.runs.get(runId)).toMatchObject({ stack: "toy", thread: runTs });

    const completed = await posted(
      harness,
      (c) => text(c).startsWith(`✅ Run completed: ${runId} (toy)`),
      "the completed notice",
    );
    expect(completed.body).toMatchObject({ channel: CHANNEL, thread_ts: runTs });
    expect(text(completed)).toMatch(
      /Training complete after 8 steps; reward mean [01](\.\d+)?\. Final weights: \S+\/saves\/iter-8/,
    );
  });
});

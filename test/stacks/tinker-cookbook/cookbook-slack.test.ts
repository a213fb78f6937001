// A cookbook recipe run through the fake Slack: select, start, Confirm, and the completed notice in the run's thread
// with its steps, reward and final weights.
import { describe, expect, it } from "vitest";
import { COOKBOOK_CHAT_ENV, RECIPE } from "../../helpers/cookbook.ts";
import { ALICE, CHANNEL, TEAM, buttonClick } from "../../slack/slack-payloads.ts";
import { buttonsOf, startSlackHarness, textOf } from "../../slack/slack-harness.ts";
import { closeDemoSlackAfterEach } from "../../slack/slack-demo.ts";
import { answered, answeredAt, posted, seen, text, type } from "../../slack/slack-waits.ts";

const keep = closeDemoSlackAfterEach();

describe("a cookbook run through Slack", () => {
  it("selects the recipe, starts after Confirm, and posts the completed notice with step and reward in the run's thread", async () => {
    const harness = keep(
      await startSlackHarness({
        env: {
          ...COOKBOOK_CHAT_ENV,
          RL_OPERATORS: `slack:${ALICE.id}`,
        },
      }),
    );
    const { fake, services } = harness;

    await type(harness, `select ${RECIPE}`);
    await answered(harness, (c) => text(c).startsWith(`Selected ${RECIPE}`), "the selection");
    const channel = { platform: "slack", workspace: TEAM, channel: CHANNEL };
    await services.env.editConfig(channel, "demo_n_batches", "20");
    await services.env.editConfig(channel, "demo_step_seconds", "0.15");

    const startUrl = await type(harness, "start");
    const prompt = await seen(harness, fake.waitForResponse(answeredAt(startUrl)), "the start prompt");
    expect(prompt.body).toMatchObject({ response_type: "ephemeral", text: `Start training ${RECIPE}?` });
    const [confirm] = buttonsOf(prompt.body.blocks);
    expect(confirm?.text.text).toBe("Confirm");
    await harness.click(buttonClick({ button: confirm!, responseUrl: fake.responseUrl(), ephemeral: true }));
    const answer = await seen(
      harness,
      fake.waitForCall("chat.update", (c) => c.ok && /\): running\n/.test(text(c))),
      "the running answer",
    );
    const runId = new RegExp(`Run (\\S+) \\(${RECIPE}\\): running`).exec(text(answer))?.[1];
    if (!runId) throw new Error(`no run id in "${text(answer)}"`);
    expect(text(answer)).toContain("The recipe is running.");
    const runTs = String(answer.body.ts);
    await seen(
      harness,
      harness.anchors.waitFor((a) => a.runId === runId),
      "the anchor",
    );
    expect(services.runs.get(runId)).toMatchObject({ stack: "tinker-cookbook", thread: runTs });

    const completed = await posted(
      harness,
      (c) => text(c).startsWith(`✅ Run completed: ${runId} (${RECIPE})`),
      "the completed notice",
    );
    expect(completed.body).toMatchObject({ channel: CHANNEL, thread_ts: runTs });
    expect(text(completed)).toMatch(
      /Training complete after 20 steps; reward mean 0\.\d+\. Final weights: tinker:\/\/\S+\/sampler_weights\/final/,
    );
    expect(textOf(completed.body.blocks)).toMatch(/\*Final reward\*\n0\.\d+/);
    expect(services.runs.get(runId)?.status).toBe("completed");
    // Nothing the bot posted about this run speaks of the other stack's processes.
    const aboutRun = fake.calls.filter((c) => c.ok && text(c).includes(runId));
    for (const c of aboutRun) expect(`${text(c)}\n${textOf(c.body.blocks)}`).not.toMatch(/\bapi\b|\benv\b|Atropos/);
  });
});

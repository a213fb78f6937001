// Budgets through the fake Slack with the real Bolt: only an admin sets one, the start prompt shows the run's steps
// against what is left, and a start over the limit is refused with what is left and when the window resets.
import { describe, expect, it } from "vitest";
import { COOKBOOK_CHAT_ENV, RECIPE } from "../helpers/cookbook.ts";
import { ALICE, BOB, CHANNEL, TEAM, buttonClick, slashCommand } from "./slack-payloads.ts";
import { buttonsOf, startSlackHarness } from "./slack-harness.ts";
import { closeDemoSlackAfterEach } from "./slack-demo.ts";
import { answered, text, typeAs } from "./slack-waits.ts";

const keep = closeDemoSlackAfterEach();

describe("budgets through Slack", () => {
  it("an admin sets a weekly step budget; a start shows its estimate, and the next one over it is refused", async () => {
    const harness = keep(
      await startSlackHarness({
        env: {
          ...COOKBOOK_CHAT_ENV,
          RL_ADMINS: `slack:${ALICE.id}`,
          RL_OPERATORS: `slack:${BOB.id}`,
        },
      }),
    );
    const { fake, services } = harness;
    const channel = { platform: "slack", workspace: TEAM, channel: CHANNEL };

    const notAdmin = await typeAs(harness, BOB, "budget set steps 30 per week", true);
    expect(notAdmin.all).toContain("Only an admin may set a budget");
    const set = await typeAs(harness, ALICE, "budget set steps 30 per week");
    expect(set.all).toContain("Budget set: 30 steps per week for this channel");

    await harness.slash(slashCommand({ text: `select ${RECIPE}`, responseUrl: fake.responseUrl(), user: BOB }));
    await answered(harness, (c) => text(c).startsWith(`Selected ${RECIPE}`), "the selection");
    await services.env.editConfig(channel, "demo_n_batches", "20");
    await services.env.editConfig(channel, "demo_step_seconds", "0.1");

    const prompt = await typeAs(harness, BOB, "start", true);
    expect(prompt.all).toContain("this run: 1 run, 20 steps; channel has 30 of 30 steps left this week");
    const [confirm] = buttonsOf(prompt.body.blocks);
    await harness.click(buttonClick({ button: confirm!, responseUrl: fake.responseUrl(), ephemeral: true, user: BOB }));
    await answered(harness, (c) => /\): running\n/.test(text(c)), "the running answer");

    const refused = await typeAs(harness, BOB, "start", true);
    expect(refused.all).toMatch(
      /Over budget: this run: 1 run, 20 steps; channel has 10 of 30 steps left this week \(resets \d{4}-\d\d-\d\d 00:00 UTC\)\. Nothing was started\./,
    );
    expect(buttonsOf(refused.body.blocks)).toEqual([]);

    const shown = await typeAs(harness, BOB, "budget");
    expect(shown.all).toContain("channel has 10 of 30 steps left this week");
  });
});

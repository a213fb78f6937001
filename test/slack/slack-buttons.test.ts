// Buttons end to end over HTTP: confirm prompts, Confirm/Cancel clicks, a click the policy refuses, and run buttons.
import { afterEach, describe, expect, it } from "vitest";
import { blockKitProblems } from "../fakes/slack-block-kit.ts";
import { ALICE, BOB, CHANNEL, TEAM, buttonClick, slashCommand } from "./slack-payloads.ts";
import { buttonsOf, startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";
import { createTestCommands, type TestCommands } from "./test-commands.ts";

let h: SlackHarness | undefined;
let t: TestCommands;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Alice may operate; everyone else only reads. */
async function start(): Promise<SlackHarness> {
  t = createTestCommands();
  h = await startSlackHarness({ commands: t.commands, env: { RL_DEFAULT_ROLE: "read", RL_OPERATORS: `slack:${ALICE.id}` } });
  return h;
}

/** Types /rl launch gsm8k as Alice and returns the ephemeral prompt's buttons. */
async function prompt(harness: SlackHarness) {
  const responseUrl = harness.fake.responseUrl();
  await harness.slash(slashCommand({ text: "launch gsm8k", responseUrl }));
  const response = await harness.fake.waitForResponse((r) => responseUrl.endsWith(`/${r.id}`));
  const [confirm, cancel] = buttonsOf(response.body.blocks);
  if (!confirm || !cancel) throw new Error("the prompt has no Confirm/Cancel buttons");
  return { response, confirm, cancel };
}

describe("Slack buttons", () => {
  it("shows a confirmation prompt, and Confirm runs the command as the clicker with progress and a run thread", async () => {
    const harness = await start();
    const { response, confirm, cancel } = await prompt(harness);
    expect(response.body.response_type).toBe("ephemeral");
    expect(response.body.text).toBe("Launch gsm8k?");
    expect(blockKitProblems(response.body.blocks)).toEqual([]);
    expect([confirm.text.text, cancel.text.text]).toEqual(["Confirm", "Cancel"]);
    expect(t.launched).toEqual([]);

    const clickUrl = harness.fake.responseUrl();
    const res = await harness.click(buttonClick({ button: confirm, responseUrl: clickUrl, ephemeral: true }));
    expect(res.status).toBe(200);

    // The prompt loses its buttons at once; a public progress message is posted, edited, then becomes the result.
    const replaced = await harness.fake.waitForResponse((r) => clickUrl.endsWith(`/${r.id}`));
    expect(replaced.body).toMatchObject({ replace_original: true, text: "Working on /rl launch…" });
    const working = await harness.fake.waitForCall("chat.postMessage");
    expect(working.body.text).toBe("Working on /rl launch…");
    const progress = await harness.fake.waitForCall("chat.update", (c) => String(c.body.text).includes("processes are up"));
    const final = await harness.fake.waitForCall("chat.update", (c) => String(c.body.text).startsWith("Launched gsm8k"));
    const ts = final.body.ts;
    expect(working.ok).toBe(true);
    expect(harness.fake.messages.get(`${CHANNEL}:${String(ts)}`)?.text).toMatch(/^Launched gsm8k/);
    expect(progress.body.ts).toBe(ts);
    expect(final.ok).toBe(true);
    expect(textOf(final.body.blocks)).toContain("<@U0ALICE> confirmed `/rl launch \"gsm8k\"`");
    expect(buttonsOf(final.body.blocks).map((b) => b.text.text)).toEqual(["Status", "Stop"]);
    expect(t.launched).toEqual(["gsm8k"]);

    // The run's message is recorded as its thread, and the prompt goes away.
    expect(await harness.anchors.waitFor()).toEqual({ runId: "run-42", channel: { platform: "slack", workspace: TEAM, channel: CHANNEL }, ts });
    const dismissed = await harness.fake.waitForResponse((r) => clickUrl.endsWith(`/${r.id}`) && r.body.delete_original === true);
    expect(dismissed.body).toEqual({ delete_original: true });
    expect(harness.anchors.items).toHaveLength(1);
  });

  it("Cancel replaces the prompt with 'Cancelled' and runs nothing", async () => {
    const harness = await start();
    const { cancel } = await prompt(harness);
    const clickUrl = harness.fake.responseUrl();
    await harness.click(buttonClick({ button: cancel, responseUrl: clickUrl, ephemeral: true }));
    const response = await harness.fake.waitForResponse((r) => clickUrl.endsWith(`/${r.id}`));
    expect(response.body).toMatchObject({ replace_original: true, text: "Cancelled" });
    expect(t.launched).toEqual([]);
    expect(harness.fake.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(0);
  });

  it("refuses a Confirm click by someone the policy does not allow to operate, like the typed command", async () => {
    const harness = await start();
    const { confirm } = await prompt(harness);
    const clickUrl = harness.fake.responseUrl();
    await harness.click(buttonClick({ button: confirm, responseUrl: clickUrl, user: BOB, ephemeral: true }));
    const refusal = await harness.fake.waitForResponse((r) => clickUrl.endsWith(`/${r.id}`) && String(r.body.text).startsWith("Not allowed"));
    expect(refusal.body.text).toContain("/rl launch needs the operate permission; you have read.");
    expect(refusal.body.text).toContain("slack:U0ALICE");
    expect(t.launched).toEqual([]);
    expect(harness.fake.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(0);

    // Typed, Bob gets the same answer before any prompt.
    const typedUrl = harness.fake.responseUrl();
    await harness.slash(slashCommand({ text: "launch gsm8k", responseUrl: typedUrl, user: BOB }));
    const typed = await harness.fake.waitForResponse((r) => typedUrl.endsWith(`/${r.id}`));
    expect(typed.body.text).toMatch(/^Not allowed/);
    expect(buttonsOf(typed.body.blocks)).toHaveLength(0);
  });

  it("run buttons run their command as the clicker: Status answers publicly, Stop asks for confirmation", async () => {
    const harness = await start();
    const { confirm } = await prompt(harness);
    await harness.click(buttonClick({ button: confirm, responseUrl: harness.fake.responseUrl(), ephemeral: true }));
    const final = await harness.fake.waitForCall("chat.update", (c) => String(c.body.text).startsWith("Launched gsm8k"));
    const [status, stop] = buttonsOf(final.body.blocks);
    if (!status || !stop) throw new Error("the run message has no buttons");
    const messageTs = String(final.body.ts);

    await harness.click(buttonClick({ button: status, responseUrl: harness.fake.responseUrl(), user: BOB, messageTs }));
    const echoed = await harness.fake.waitForCall("chat.postMessage", (c) => String(c.body.text).startsWith("Echo"));
    expect(echoed.body.text).toBe("Echo\nstatus of run-42");
    expect(textOf(echoed.body.blocks)).toContain("<@U0BOB> clicked `/rl echo status of run-42`");

    // Stop confirms first, in a new private prompt: the run's public message stays as it is.
    const stopUrl = harness.fake.responseUrl();
    await harness.click(buttonClick({ button: stop, responseUrl: stopUrl, messageTs }));
    const stopPrompt = await harness.fake.waitForResponse((r) => stopUrl.endsWith(`/${r.id}`));
    expect(stopPrompt.body).toMatchObject({ response_type: "ephemeral", replace_original: false, text: "Run /rl halt?" });
    expect(buttonsOf(stopPrompt.body.blocks).map((b) => [b.text.text, b.value])).toEqual([
      ["Confirm", JSON.stringify({ c: '/rl halt "run-42"', y: 1 })],
      ["Cancel", JSON.stringify({ c: "", a: "cancel" })],
    ]);
  });

  it("answers a click on a button it did not make with a hint, and runs nothing", async () => {
    const harness = await start();
    const url = harness.fake.responseUrl();
    await harness.click(buttonClick({ button: { action_id: "rl_btn_0", value: "not json", text: { text: "Old" } }, responseUrl: url }));
    const response = await harness.fake.waitForResponse((r) => url.endsWith(`/${r.id}`));
    expect(response.body.text).toContain("not one I know");
  });
});

// Buttons end to end over HTTP: confirm prompts answered once through their records (replays, other people, expiry), and run buttons.
import { afterEach, describe, expect, it } from "vitest";
import { delay } from "../../src/training/wait-until.ts";
import { blockKitProblems } from "../fakes/slack-block-kit.ts";
import { ALICE, BOB, CHANNEL, TEAM, buttonClick, slashCommand } from "./slack-payloads.ts";
import { buttonsOf, startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";
import { createTestCommands, type TestCommands } from "./test-commands.ts";

let h: SlackHarness | undefined;
let t: TestCommands;
/** The services' clock is the real one plus this much (tests move it to expire prompts). */
let skew = 0;
const ADMIN = { id: "U0ADMIN", name: "admin" };

afterEach(async () => {
  await h?.close();
  h = undefined;
  skew = 0;
});

/** Alice may operate, the admin administers; everyone else (Bob) only reads. */
async function start(): Promise<SlackHarness> {
  t = createTestCommands();
  h = await startSlackHarness({
    commands: t.commands,
    env: { RL_DEFAULT_ROLE: "read", RL_OPERATORS: `slack:${ALICE.id}`, RL_ADMINS: `slack:${ADMIN.id}` },
    now: () => Date.now() + skew,
  });
  return h;
}

/** The private answers sent to a response_url whose text starts with `prefix`. */
const answersAt = (harness: SlackHarness, url: string, prefix: string) =>
  harness.fake.responses.filter((r) => url.endsWith(`/${r.id}`) && String(r.body.text).startsWith(prefix));

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
    // The buttons carry only the prompt's id; the command waits in the confirmations table.
    const id = (JSON.parse(confirm.value) as { k: string }).k;
    expect(JSON.parse(confirm.value)).toEqual({ k: id, a: "confirm" });
    expect(JSON.parse(cancel.value)).toEqual({ k: id, a: "cancel" });
    expect(harness.services.confirmations.get(id)).toMatchObject({
      askerId: ALICE.id,
      command: "launch",
      commandText: '/rl launch "gsm8k"',
      state: "pending",
    });
    expect(t.launched).toEqual([]);

    const clickUrl = harness.fake.responseUrl();
    const res = await harness.click(buttonClick({ button: confirm, responseUrl: clickUrl, ephemeral: true }));
    expect(res.status).toBe(200);

    // The prompt loses its buttons at once; a public progress message is posted, edited, then becomes the result.
    const replaced = await harness.fake.waitForResponse((r) => clickUrl.endsWith(`/${r.id}`));
    expect(replaced.body).toMatchObject({ replace_original: true, text: "Working on /rl launch…" });
    const working = await harness.fake.waitForCall("chat.postMessage");
    expect(working.body.text).toBe("Working on /rl launch…");
    const progress = await harness.fake.waitForCall("chat.update", (c) =>
      String(c.body.text).includes("processes are up"),
    );
    const final = await harness.fake.waitForCall("chat.update", (c) =>
      String(c.body.text).startsWith("Launched gsm8k"),
    );
    const ts = final.body.ts;
    expect(working.ok).toBe(true);
    expect(harness.fake.messages.get(`${CHANNEL}:${String(ts)}`)?.text).toMatch(/^Launched gsm8k/);
    expect(progress.body.ts).toBe(ts);
    expect(final.ok).toBe(true);
    expect(textOf(final.body.blocks)).toContain('<@U0ALICE> confirmed `/rl launch "gsm8k"`');
    expect(buttonsOf(final.body.blocks).map((b) => b.text.text)).toEqual(["Status", "Stop"]);
    expect(t.launched).toEqual(["gsm8k"]);

    // The run's message is recorded as its thread, and the prompt goes away.
    expect(await harness.anchors.waitFor()).toEqual({
      runId: "run-42",
      channel: { platform: "slack", workspace: TEAM, channel: CHANNEL },
      ts,
    });
    const dismissed = await harness.fake.waitForResponse(
      (r) => clickUrl.endsWith(`/${r.id}`) && r.body.delete_original === true,
    );
    expect(dismissed.body).toEqual({ delete_original: true });
    expect(harness.anchors.items).toHaveLength(1);
    expect(harness.services.confirmations.get(id)).toMatchObject({
      state: "confirmed",
      answeredBy: ALICE.id,
      answeredByName: ALICE.name,
    });
  });

  it("runs a replayed Confirm click once: the identical payload again, and two at the same moment, are told it was already answered", async () => {
    const harness = await start();
    const { confirm } = await prompt(harness);
    const clickUrl = harness.fake.responseUrl();
    const payload = buttonClick({ button: confirm, responseUrl: clickUrl, ephemeral: true });
    // Two identical clicks at once (a double click), then the same payload again once the first has finished.
    await Promise.all([harness.click(payload), harness.click(payload)]);
    await harness.fake.waitForCall("chat.update", (c) => String(c.body.text).startsWith("Launched gsm8k"));
    await harness.fake.waitForResponse(
      (r) => clickUrl.endsWith(`/${r.id}`) && String(r.body.text).includes("already answered"),
    );
    expect((await harness.click(payload)).status).toBe(200);
    await until(() => answersAt(harness, clickUrl, "Could not do that").length === 2, "the replay's answer");

    expect(t.launched).toEqual(["gsm8k"]);
    for (const r of answersAt(harness, clickUrl, "Could not do that")) {
      expect(r.body).toMatchObject({ response_type: "ephemeral", replace_original: false });
      expect(textOf(r.body.blocks)).toContain(`This was already answered (confirmed by ${ALICE.name}).`);
    }
    expect(
      harness.fake.calls.filter((c) => c.method === "chat.postMessage" && String(c.body.text).startsWith("Working on")),
    ).toHaveLength(1);
    // One answer won and ran the command; both others were refused (in whichever order the clicks arrived).
    expect(
      harness.services.audit
        .latest(10)
        .map((a) => `${a.command} ${a.outcome}`)
        .sort(),
    ).toEqual(["confirm ok", "confirm refused", "confirm refused", "launch ok"]);
  });

  it("refuses Confirm and Cancel clicks by someone else, leaving the prompt to its asker; an admin may answer it", async () => {
    const harness = await start();
    const { confirm, cancel } = await prompt(harness);
    for (const button of [confirm, cancel]) {
      const url = harness.fake.responseUrl();
      await harness.click(buttonClick({ button, responseUrl: url, user: BOB, ephemeral: true }));
      const refusal = await harness.fake.waitForResponse((r) => url.endsWith(`/${r.id}`));
      expect(refusal.body).toMatchObject({ response_type: "ephemeral", replace_original: false });
      expect(String(refusal.body.text)).toBe(`Not allowed\nOnly ${ALICE.name} or an admin can answer this prompt.`);
    }
    expect(t.launched).toEqual([]);
    const id = (JSON.parse(confirm.value) as { k: string }).k;
    expect(harness.services.confirmations.get(id)?.state).toBe("pending");
    expect(harness.services.audit.latest(10).map((a) => [a.userId, a.command, a.outcome])).toEqual([
      [BOB.id, "cancel", "refused"],
      [BOB.id, "confirm", "refused"],
    ]);

    // Alice's own Confirm still works.
    await harness.click(buttonClick({ button: confirm, responseUrl: harness.fake.responseUrl(), ephemeral: true }));
    await harness.fake.waitForCall("chat.update", (c) => String(c.body.text).startsWith("Launched gsm8k"));
    expect(t.launched).toEqual(["gsm8k"]);

    // An admin may answer someone else's prompt: here, cancel it.
    const second = await prompt(harness);
    const adminUrl = harness.fake.responseUrl();
    await harness.click(buttonClick({ button: second.cancel, responseUrl: adminUrl, user: ADMIN, ephemeral: true }));
    const cancelled = await harness.fake.waitForResponse((r) => adminUrl.endsWith(`/${r.id}`));
    expect(cancelled.body).toMatchObject({
      replace_original: true,
      text: `Cancelled by ${ADMIN.name}: /rl launch "gsm8k"`,
    });
    expect(t.launched).toEqual(["gsm8k"]);
  });

  it("says an expired prompt expired, and runs nothing", async () => {
    const harness = await start();
    const { confirm } = await prompt(harness);
    skew = 15 * 60_000 + 1;
    const url = harness.fake.responseUrl();
    await harness.click(buttonClick({ button: confirm, responseUrl: url, ephemeral: true }));
    const response = await harness.fake.waitForResponse((r) => url.endsWith(`/${r.id}`));
    expect(response.body).toMatchObject({ response_type: "ephemeral", replace_original: false });
    expect(textOf(response.body.blocks)).toContain("This prompt expired; run the command again.");
    expect(t.launched).toEqual([]);
    expect(harness.fake.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(0);
  });

  it("Cancel replaces the prompt with who cancelled it and runs nothing; a Confirm after it is told it was cancelled", async () => {
    const harness = await start();
    const { confirm, cancel } = await prompt(harness);
    const clickUrl = harness.fake.responseUrl();
    await harness.click(buttonClick({ button: cancel, responseUrl: clickUrl, ephemeral: true }));
    const response = await harness.fake.waitForResponse((r) => clickUrl.endsWith(`/${r.id}`));
    expect(response.body).toMatchObject({
      replace_original: true,
      text: `Cancelled by ${ALICE.name}: /rl launch "gsm8k"`,
    });
    expect(t.launched).toEqual([]);
    expect(harness.fake.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(0);

    const lateUrl = harness.fake.responseUrl();
    await harness.click(buttonClick({ button: confirm, responseUrl: lateUrl, ephemeral: true }));
    const late = await harness.fake.waitForResponse((r) => lateUrl.endsWith(`/${r.id}`));
    expect(textOf(late.body.blocks)).toContain(`This was already answered (cancelled by ${ALICE.name}).`);
    expect(t.launched).toEqual([]);
    expect(harness.services.audit.latest(5).map((a) => [a.command, a.outcome])).toEqual([
      ["confirm", "refused"],
      ["cancel", "ok"],
    ]);
  });

  it("refuses a Confirm click by the asker once the policy no longer lets them operate, and keeps the prompt open", async () => {
    const harness = await start();
    const { confirm } = await prompt(harness);
    // The channel leaves the allowlist (as after a restart with RL_CHANNEL_ALLOWLIST set): Alice may no longer operate here.
    harness.services.config.policy.channelAllowlist = ["C0OTHER"];
    const clickUrl = harness.fake.responseUrl();
    await harness.click(buttonClick({ button: confirm, responseUrl: clickUrl, ephemeral: true }));
    const refusal = await harness.fake.waitForResponse(
      (r) => clickUrl.endsWith(`/${r.id}`) && String(r.body.text).startsWith("Not allowed"),
    );
    expect(refusal.body.text).toContain("/rl launch needs the operate permission; you have none in this channel");
    expect(t.launched).toEqual([]);
    const id = (JSON.parse(confirm.value) as { k: string }).k;
    expect(harness.services.confirmations.get(id)?.state).toBe("pending");

    // Typed, Bob gets a refusal before any prompt.
    harness.services.config.policy.channelAllowlist = [];
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
    const final = await harness.fake.waitForCall("chat.update", (c) =>
      String(c.body.text).startsWith("Launched gsm8k"),
    );
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
    expect(stopPrompt.body).toMatchObject({
      response_type: "ephemeral",
      replace_original: false,
      text: "Run /rl halt?",
    });
    const [confirmHalt, cancelHalt] = buttonsOf(stopPrompt.body.blocks);
    const id = (JSON.parse(confirmHalt!.value) as { k: string }).k;
    expect([confirmHalt, cancelHalt].map((b) => [b?.text.text, b?.value])).toEqual([
      ["Confirm", JSON.stringify({ k: id, a: "confirm" })],
      ["Cancel", JSON.stringify({ k: id, a: "cancel" })],
    ]);
    expect(harness.services.confirmations.get(id)).toMatchObject({
      command: "halt",
      args: { id: "run-42" },
      askerId: ALICE.id,
    });
  });

  it("answers a click on a button it did not make with a hint, and runs nothing", async () => {
    const harness = await start();
    const url = harness.fake.responseUrl();
    await harness.click(
      buttonClick({ button: { action_id: "rl_btn_0", value: "not json", text: { text: "Old" } }, responseUrl: url }),
    );
    const response = await harness.fake.waitForResponse((r) => url.endsWith(`/${r.id}`));
    expect(response.body.text).toContain("not one I know");
  });
});

/** Polls `check` (bounded, no timing assertion) until it holds. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await delay(25);
  }
  throw new Error(`gave up waiting for ${what}`);
}

// Buttons (type 3 component interactions): Confirm / Cancel on a prompt, reply buttons, refusals, expired prompts.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BOB } from "../fakes/discord-gateway.ts";
import { bodyOf, buttonsOf, embedsOf, isEditOriginal, isFollowup, messageIdOf, startHarness, stopHarness, type Harness } from "./harness.ts";

let h: Harness | undefined;
const harness = (): Harness => h!;

beforeEach(async () => {
  h = await startHarness();
});

afterEach(async () => {
  await stopHarness(h);
  h = undefined;
});

/** /rl launch by alice: the ephemeral prompt's message id and its Confirm / Cancel custom_ids. */
async function prompt(): Promise<{ messageId: string; confirm: string; cancel: string }> {
  const call = await harness().fake.slash("launch", { steps: 5 }).callback();
  expect((bodyOf(call)["data"] as { flags?: number }).flags).toBe(64);
  expect(embedsOf(call)[0]?.["title"]).toBe("Launch a run?");
  const buttons = buttonsOf(call);
  expect(buttons.map((b) => b.label)).toEqual(["Confirm", "Cancel"]);
  for (const b of buttons) expect(b.custom_id.length).toBeLessThanOrEqual(100);
  return { messageId: messageIdOf(call), confirm: buttons[0]!.custom_id, cancel: buttons[1]!.custom_id };
}

describe("confirmation prompts", () => {
  it("Confirm closes the prompt (type 7), runs as the clicker and posts the result as a follow-up", async () => {
    const { fake, anchored, channel } = harness();
    const { messageId, confirm } = await prompt();
    // The pending command stays server-side: the custom_id is a short key, not the command text.
    expect(confirm).not.toContain("launch");
    const click = fake.click(messageId, confirm);
    const update = await click.callback();
    expect(bodyOf(update)["type"]).toBe(7);
    expect((bodyOf(update)["data"] as { components: unknown[] }).components).toEqual([]);
    expect(String(embedsOf(update)[0]?.["description"])).toContain("Confirmed by alice");
    const followup = await fake.waitForCall(isFollowup(click.token), "the follow-up with the result");
    expect(embedsOf(followup)[0]?.["title"]).toBe("Launched run r1");
    expect((bodyOf(followup)["flags"] ?? 0) as number).toBe(0);
    expect(buttonsOf(followup).map((b) => [b.label, b.custom_id])).toEqual([
      ["Stop", "rl:r:/rl halt r1"],
      ["Status", "rl:r:/rl help"],
    ]);
    expect(await anchored("r1")).toEqual({ runId: "r1", channel, id: messageIdOf(followup) });
    // The command reported progress on the prompt, so the prompt ends saying how it went.
    await fake.waitForCall((c) => isEditOriginal(click.token)(c) && String(embedsOf(c)[0]?.["description"]).startsWith("Done: /rl launch"), "the closed prompt");
    expect(harness().services.audit.latest(10).map((e) => [e.command, e.userId, e.outcome])).toContainEqual(["launch", fake.ids.alice, "ok"]);
  });

  it("Cancel updates the prompt to Cancelled and runs nothing", async () => {
    const { fake } = harness();
    const { messageId, cancel } = await prompt();
    const update = await fake.click(messageId, cancel).callback();
    expect(bodyOf(update)["type"]).toBe(7);
    expect(String(embedsOf(update)[0]?.["description"])).toMatch(/^Cancelled/);
    expect(fake.message(messageId)?.["components"]).toEqual([]);
    // Cancel never dispatches: after a later command is answered, nothing about launch was audited.
    await fake.slash("envs").callback();
    expect(harness().services.audit.latest(10).filter((e) => e.command === "launch")).toEqual([]);
  });

  it("a Confirm click by someone the policy refuses is refused, ephemerally", async () => {
    const { fake, anchors } = harness();
    const { messageId, confirm } = await prompt();
    const click = fake.click(messageId, confirm, { user: BOB });
    expect(bodyOf(await click.callback())["type"]).toBe(7);
    const followup = await fake.waitForCall(isFollowup(click.token), "the refusal");
    expect(bodyOf(followup)["flags"]).toBe(64);
    expect(embedsOf(followup)[0]?.["title"]).toBe("Not allowed");
    expect(anchors).toEqual([]);
    expect(harness().services.audit.latest(10).map((e) => [e.command, e.userId, e.outcome])).toContainEqual(["launch", BOB.id, "refused"]);
  });

  it("an expired prompt (unknown key) says so instead of running anything", async () => {
    const { fake } = harness();
    const { messageId } = await prompt();
    const call = await fake.click(messageId, "rl:k:gone").callback();
    expect(bodyOf(call)["type"]).toBe(4);
    expect((bodyOf(call)["data"] as { flags?: number }).flags).toBe(64);
    expect(String(embedsOf(call)[0]?.["description"])).toContain("expired");
  });

  it("runs a confirmation once, however often Confirm is clicked", async () => {
    const { fake } = harness();
    const { messageId, confirm } = await prompt();
    const first = fake.click(messageId, confirm);
    await fake.waitForCall(isFollowup(first.token), "the result");
    const again = await fake.click(messageId, confirm).callback();
    expect(String(embedsOf(again)[0]?.["description"])).toContain("already answered");
    expect(harness().services.audit.latest(10).filter((e) => e.command === "launch")).toHaveLength(1);
  });
});

describe("reply buttons", () => {
  async function runMessage(): Promise<string> {
    const { fake } = harness();
    const { messageId, confirm } = await prompt();
    const click = fake.click(messageId, confirm);
    return messageIdOf(await fake.waitForCall(isFollowup(click.token), "the run message"));
  }

  it("run their command as the clicker", async () => {
    const { fake } = harness();
    const message = await runMessage();
    const call = await fake.click(message, "rl:r:/rl halt r1").callback();
    expect(bodyOf(call)["type"]).toBe(4);
    expect(embedsOf(call)[0]?.["title"]).toBe("Stopped r1");
  });

  it("are authorised like the typed command", async () => {
    const { fake } = harness();
    const message = await runMessage();
    const call = await fake.click(message, "rl:r:/rl halt r1", { user: BOB }).callback();
    expect((bodyOf(call)["data"] as { flags?: number }).flags).toBe(64);
    expect(embedsOf(call)[0]?.["title"]).toBe("Not allowed");
  });
});

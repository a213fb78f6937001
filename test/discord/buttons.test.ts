// Buttons (type 3 component interactions): Confirm / Cancel answered once through the prompt's record (replays,
// other people, expiry, a bot restart), and reply buttons.
import { beforeEach, describe, expect, it } from "vitest";
import { newConfirmationId } from "../../db/confirmations.ts";
import { ALICE, BOB, IDS } from "../fakes/discord-gateway.ts";
import {
  bodyOf,
  buttonsOf,
  embedsOf,
  isEditOriginal,
  isFollowup,
  messageIdOf,
  harnessPerTest,
  replyTo,
  type Harness,
} from "./harness.ts";

const start = harnessPerTest();
let h: Harness | undefined;
const harness = (): Harness => h!;
/** The services' clock is the real one plus this much (tests move it to expire prompts). */
let skew = 0;

beforeEach(async () => {
  skew = 0;
  h = await start({ now: () => Date.now() + skew });
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

/**
 * "@bot /rl launch --steps 5" by alice: the prompt is her mention's reply, a message the whole channel sees (an
 * ephemeral prompt is shown to its asker alone, so nobody else could click it).
 */
async function publicPrompt(): Promise<{ messageId: string; confirm: string; cancel: string }> {
  const asked = harness().fake.say(ALICE, `<@${IDS.bot}> /rl launch --steps 5`);
  const call = await replyTo(harness(), String(asked["id"]));
  expect(embedsOf(call)[0]?.["title"]).toBe("Launch a run?");
  const buttons = buttonsOf(call);
  expect(buttons.map((b) => b.label)).toEqual(["Confirm", "Cancel"]);
  return { messageId: messageIdOf(call), confirm: buttons[0]!.custom_id, cancel: buttons[1]!.custom_id };
}

const launches = (): number =>
  harness()
    .services.audit.latest(50)
    .filter((e) => e.command === "launch" && e.outcome === "ok").length;
const idOf = (customId: string): string => customId.slice("rl:y:".length);

describe("confirmation prompts", () => {
  it("Confirm closes the prompt (type 7), runs as the clicker and posts the result as a follow-up", async () => {
    const { fake, anchored, channel } = harness();
    const { messageId, confirm } = await prompt();
    // The pending command stays server-side: the custom_id is the prompt's id, not the command text.
    expect(confirm).toMatch(/^rl:y:[A-Za-z0-9_-]{22}$/);
    expect(harness().services.confirmations.get(idOf(confirm))).toMatchObject({
      command: "launch",
      args: { steps: 5 },
      askerId: fake.ids.alice,
      state: "pending",
    });
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
    await fake.waitForCall(
      (c) => isEditOriginal(click.token)(c) && String(embedsOf(c)[0]?.["description"]).startsWith("Done: /rl launch"),
      "the closed prompt",
    );
    expect(
      harness()
        .services.audit.latest(10)
        .map((e) => [e.command, e.userId, e.outcome]),
    ).toContainEqual(["launch", fake.ids.alice, "ok"]);
  });

  it("Cancel updates the prompt to Cancelled and runs nothing", async () => {
    const { fake } = harness();
    const { messageId, cancel } = await prompt();
    const update = await fake.click(messageId, cancel).callback();
    expect(bodyOf(update)["type"]).toBe(7);
    expect(String(embedsOf(update)[0]?.["description"])).toMatch(/^Cancelled/);
    expect(fake.message(messageId)?.["components"]).toEqual([]);
    // Cancel runs nothing: the answer is audited, launch never ran.
    await fake.slash("envs").callback();
    expect(
      harness()
        .services.audit.latest(10)
        .map((e) => [e.command, e.outcome]),
    ).toEqual([["cancel", "ok"]]);
    expect(harness().services.confirmations.get(cancel.slice("rl:n:".length))).toMatchObject({
      state: "cancelled",
      answeredBy: fake.ids.alice,
    });
  });

  it("shows a slash command's prompt to its asker alone", async () => {
    const { messageId, confirm } = await prompt();
    expect(() => harness().fake.click(messageId, confirm, { user: BOB })).toThrow(/ephemeral, shown only to user/);
  });

  it("refuses Confirm and Cancel by someone else, ephemerally, and leaves the prompt to its asker", async () => {
    const { fake, anchors } = harness();
    const { messageId, confirm, cancel } = await publicPrompt();
    for (const button of [confirm, cancel]) {
      const call = await fake.click(messageId, button, { user: BOB }).callback();
      expect(bodyOf(call)["type"]).toBe(4);
      expect((bodyOf(call)["data"] as { flags?: number }).flags).toBe(64);
      expect(embedsOf(call)[0]?.["title"]).toBe("Not allowed");
      expect(String(embedsOf(call)[0]?.["description"])).toBe("Only alice or an admin can answer this prompt.");
    }
    // The prompt keeps its buttons and its record stays pending.
    const rows = (fake.message(messageId)?.["components"] ?? []) as Array<{ components: Array<{ custom_id: string }> }>;
    expect(rows.flatMap((r) => r.components.map((b) => b.custom_id))).toEqual([confirm, cancel]);
    expect(harness().services.confirmations.get(idOf(confirm))?.state).toBe("pending");
    expect(anchors).toEqual([]);
    expect(
      harness()
        .services.audit.latest(10)
        .map((e) => [e.command, e.userId, e.outcome]),
    ).toEqual([
      ["cancel", BOB.id, "refused"],
      ["confirm", BOB.id, "refused"],
    ]);
    // Alice can still confirm it.
    const click = fake.click(messageId, confirm);
    expect(bodyOf(await click.callback())["type"]).toBe(7);
    expect(embedsOf(await fake.waitForCall(isFollowup(click.token), "the result"))[0]?.["title"]).toBe(
      "Launched run r1",
    );
    expect(launches()).toBe(1);
  });

  it("lets an admin answer someone else's prompt", async () => {
    h = await start({ env: { RL_ADMINS: `discord:${BOB.id}` } });
    const { fake } = harness();
    const { messageId, confirm } = await publicPrompt();
    const click = fake.click(messageId, confirm, { user: BOB });
    expect(String(embedsOf(await click.callback())[0]?.["description"])).toContain("Confirmed by bob");
    await fake.waitForCall(isFollowup(click.token), "the result");
    expect(harness().services.confirmations.get(idOf(confirm))).toMatchObject({
      state: "confirmed",
      askerId: fake.ids.alice,
      answeredBy: BOB.id,
    });
  });

  it("says an expired prompt expired, and an unknown one is unknown, without running anything", async () => {
    const { fake } = harness();
    const { messageId, confirm } = await prompt();
    skew = 15 * 60_000 + 1;
    const expired = await fake.click(messageId, confirm).callback();
    expect(bodyOf(expired)["type"]).toBe(4);
    expect((bodyOf(expired)["data"] as { flags?: number }).flags).toBe(64);
    expect(String(embedsOf(expired)[0]?.["description"])).toBe("This prompt expired; run the command again.");
    const unknown = await fake.click(messageId, `rl:y:${newConfirmationId()}`).callback();
    expect(String(embedsOf(unknown)[0]?.["description"])).toContain("I do not know this prompt");
    expect(launches()).toBe(0);
    expect(harness().services.confirmations.get(idOf(confirm))?.state).toBe("pending");
  });

  it("runs a confirmation once, however often Confirm is clicked, at once or later", async () => {
    const { fake } = harness();
    const { messageId, confirm, cancel } = await prompt();
    const first = fake.click(messageId, confirm);
    const second = fake.click(messageId, confirm);
    const answers = await Promise.all([first.callback(), second.callback()]);
    // One click closed the prompt (type 7); the other was told, privately, that it was answered.
    expect(answers.map((a) => bodyOf(a)["type"]).sort()).toEqual([4, 7]);
    const told = answers.find((a) => bodyOf(a)["type"] === 4)!;
    expect(String(embedsOf(told)[0]?.["description"])).toBe("This was already answered (confirmed by alice).");
    const winner = bodyOf(answers[0]!)["type"] === 7 ? first : second;
    await fake.waitForCall(isFollowup(winner.token), "the result");
    for (const button of [confirm, cancel]) {
      const again = await fake.click(messageId, button).callback();
      expect(String(embedsOf(again)[0]?.["description"])).toContain("already answered (confirmed by alice)");
    }
    expect(launches()).toBe(1);
  });

  it("keeps a prompt answerable across a bot restart, and answered after it", async () => {
    const { fake } = harness();
    const { messageId, confirm } = await prompt();
    // New services on the same SQLite file, and a new adapter instance: nothing of the prompt is left in memory.
    await harness().restart();
    const click = fake.click(messageId, confirm);
    expect(bodyOf(await click.callback())["type"]).toBe(7);
    expect(
      embedsOf(await fake.waitForCall(isFollowup(click.token), "the result after the restart"))[0]?.["title"],
    ).toBe("Launched run r1");
    await harness().restart();
    const again = await fake.click(messageId, confirm).callback();
    expect(String(embedsOf(again)[0]?.["description"])).toBe("This was already answered (confirmed by alice).");
    expect(launches()).toBe(1);
  });

  it("answers a command button whose command was kept in memory before a restart with a hint", async () => {
    const { fake } = harness();
    const { messageId } = await prompt();
    const call = await fake.click(messageId, "rl:k:gone").callback();
    expect(bodyOf(call)["type"]).toBe(4);
    expect(String(embedsOf(call)[0]?.["description"])).toContain("expired");
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

// A chat answer's Confirm/Cancel through the real Bolt app: the prompt is closed in place (chat.update, buttons gone,
// who answered), and the run it starts speaks in the conversation's thread, its notices too.
import { describe, expect, it } from "vitest";
import { turnReply } from "../../adapters/chat/chat-reply.ts";
import type { ChatHandler } from "../../adapters/chat-adapter.ts";
import { dispatch } from "../../commands/dispatch.ts";
import { blockKitProblems } from "../fakes/slack-block-kit.ts";
import type { RecordedCall } from "../fakes/slack-api.ts";
import { ALICE, CHANNEL, TEAM, buttonClick, eventCallback } from "./slack-payloads.ts";
import { buttonsOf, textOf, type SlackHarness } from "./slack-harness.ts";
import { closeDemoSlackAfterEach, startDemoSlack } from "./slack-demo.ts";
import { answered, posted, seen, text, type } from "./slack-waits.ts";

const keep = closeDemoSlackAfterEach();

/** The conversation: Alice's mention at the channel's top level, answered in its thread. */
const CONVERSATION = "1700000200.000200";

/** A model that always asks to start training: the real chat answer, built from the start tool's prompt. */
const askToStart: ChatHandler = async (_text, ctx) => {
  const result = await dispatch({ text: "/rl start" }, ctx);
  const outcome = { name: "rl_start", ok: true, content: "", confirmation: result.reply };
  return turnReply(
    { turn: [], outcomes: [outcome], iterations: 1, answer: "Press Confirm to start training arithmetic." },
    5,
    (s) => s,
  );
};

/** The bot on the demo stack with arithmetic selected, and Alice's question answered with a prompt. */
async function startAndAsk(): Promise<{ harness: SlackHarness; prompt: RecordedCall; promptTs: string }> {
  const harness = keep(await startDemoSlack(undefined, { chat: askToStart }));
  // Slack shows Alice as "Olive" (her display name), not by the username her clicks carry: so does every message.
  harness.fake.addUser({ id: ALICE.id, name: ALICE.name, displayName: "Olive" });
  await type(harness, "select arithmetic");
  await answered(harness, (c) => text(c).startsWith("Selected arithmetic"), "the selection");
  const prompt = await ask(harness, CONVERSATION);
  return { harness, prompt, promptTs: tsOf(harness, prompt) };
}

/** The prompt's chat.update once a click closed it. */
async function closedPrompt(harness: SlackHarness, promptTs: string): Promise<RecordedCall> {
  const closed = await seen(
    harness,
    harness.fake.waitForCall("chat.update", (c) => c.body.ts === promptTs),
    "the prompt closed",
  );
  expect(closed.ok).toBe(true);
  expect(blockKitProblems(closed.body.blocks)).toEqual([]);
  expect(buttonsOf(closed.body.blocks)).toEqual([]);
  expect(textOf(closed.body.blocks)).toContain("Press Confirm to start training arithmetic.");
  return closed;
}

/** Alice asks in the channel; returns the chat answer (the prompt) posted in the conversation's thread. */
async function ask(harness: SlackHarness, ts: string): Promise<RecordedCall> {
  const mention = { type: "app_mention", user: ALICE.id, text: "<@U0BOT> start training", ts, channel: CHANNEL };
  expect((await harness.event(eventCallback(mention))).status).toBe(200);
  return posted(harness, (c) => c.body.thread_ts === ts && buttonsOf(c.body.blocks).length > 0, "the chat prompt");
}

/** A click on one of the prompt's buttons, with the message as Slack sends it back (its blocks and thread). */
function clickOn(harness: SlackHarness, prompt: RecordedCall, ts: string, label: string) {
  const button = buttonsOf(prompt.body.blocks).find((b) => b.text.text === label);
  if (!button) throw new Error(`the prompt has no ${label} button`);
  const message = { text: text(prompt), blocks: prompt.body.blocks, thread_ts: String(prompt.body.thread_ts) };
  return harness.click(buttonClick({ button, responseUrl: harness.fake.responseUrl(), messageTs: ts, message }));
}

/** The ts chat.postMessage gave the recorded call's message. */
function tsOf(harness: SlackHarness, call: RecordedCall): string {
  const message = [...harness.fake.messages.values()].find(
    (m) => m.thread_ts === call.body.thread_ts && m.text === call.body.text,
  );
  if (!message) throw new Error("the posted message is not in the fake");
  return message.ts;
}

describe("Slack chat Confirm and Cancel", () => {
  it("Confirm closes the chat prompt in place and the run's message and notices go into the conversation's thread", async () => {
    const { harness, prompt, promptTs } = await startAndAsk();
    const { fake, services } = harness;
    expect(buttonsOf(prompt.body.blocks).map((b) => b.text.text)).toEqual(["Confirm", "Cancel"]);
    expect(textOf(prompt.body.blocks)).toContain("Press Confirm to start training arithmetic.");

    expect((await clickOn(harness, prompt, promptTs, "Confirm")).status).toBe(200);
    // The prompt is edited in place: the answer stays, the buttons go, and it says who confirmed.
    const closed = await closedPrompt(harness, promptTs);
    expect(textOf(closed.body.blocks)).toContain("Confirmed by Olive: /rl start");
    expect(fake.messages.get(`${CHANNEL}:${promptTs}`)?.thread_ts).toBe(CONVERSATION);

    // "Working on…" and the run's answer are in the conversation, not a new thread at the channel's top level.
    const working = await posted(harness, (c) => text(c) === "Working on /rl start…", "the Working on… message");
    expect(working.body.thread_ts).toBe(CONVERSATION);
    const answer = await seen(
      harness,
      fake.waitForCall("chat.update", (c) => c.ok && /\): running\n/.test(text(c))),
      "the running answer",
    );
    expect(fake.messages.get(`${CHANNEL}:${String(answer.body.ts)}`)?.thread_ts).toBe(CONVERSATION);
    const runId = /Run (\S+) \(arithmetic\): running/.exec(text(answer))?.[1];
    if (!runId) throw new Error(`no run id in "${text(answer)}"`);
    expect(textOf(answer.body.blocks)).toContain(`<@${ALICE.id}> confirmed \`/rl start\``);

    // The run's thread is the conversation's, so its notices land there too.
    expect(
      await seen(
        harness,
        harness.anchors.waitFor((a) => a.runId === runId),
        "the anchor",
      ),
    ).toEqual({
      runId,
      channel: { platform: "slack", workspace: TEAM, channel: CHANNEL },
      ts: CONVERSATION,
    });
    expect(services.runs.get(runId)?.thread).toBe(CONVERSATION);
    const notice = await posted(harness, (c) => text(c).startsWith(`🏃 Run started: ${runId}`), "the started notice");
    expect(notice.body).toMatchObject({ channel: CHANNEL, thread_ts: CONVERSATION });
    // Nothing of this run went to the channel's top level.
    const topLevel = fake.calls.filter((c) => c.method === "chat.postMessage" && c.body.thread_ts === undefined);
    expect(topLevel.map(text).filter((t) => t.includes(runId) || t.startsWith("Working on /rl start"))).toEqual([]);
  });

  it("Cancel closes the chat prompt in place, saying who cancelled, and starts nothing", async () => {
    const { harness, prompt, promptTs } = await startAndAsk();
    const { fake, services } = harness;
    await clickOn(harness, prompt, promptTs, "Cancel");
    const closed = await closedPrompt(harness, promptTs);
    expect(textOf(closed.body.blocks)).toContain("Cancelled by Olive: /rl start");
    expect(fake.responses.filter((r) => r.body.replace_original === true)).toEqual([]);
    expect(services.runs.listByStatus(["queued", "starting", "running"])).toEqual([]);
  });
});

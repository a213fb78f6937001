// Mentions and direct messages over HTTP: a hint until a chat entry point is given, then its reply in the thread.
import { afterEach, describe, expect, it } from "vitest";
import type { CommandContext } from "../../commands/types.ts";
import { CHANNEL, TEAM, eventCallback } from "./slack-payloads.ts";
import { startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";

let h: SlackHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

const mention = (text: string, extra: Record<string, unknown> = {}) =>
  eventCallback({ type: "app_mention", user: "U0ALICE", text, ts: "1700000200.000200", channel: CHANNEL, ...extra });

describe("Slack mentions and direct messages", () => {
  it("answers a mention in its thread with a hint listing the /rl commands", async () => {
    h = await startSlackHarness();
    const res = await h.event(mention("<@U0BOT> start training on gsm8k please"));
    expect(res.status).toBe(200);
    const post = await h.fake.waitForCall("chat.postMessage");
    expect(post.body.channel).toBe(CHANNEL);
    expect(post.body.thread_ts).toBe("1700000200.000200");
    const text = textOf(post.body.blocks);
    expect(text).toContain("/rl help");
    expect(text).toContain("/rl select");
    expect(text).toContain("LLM_BASE_URL");
  });

  it("answers a mention inside a thread in that thread", async () => {
    h = await startSlackHarness();
    await h.event(mention("<@U0BOT> status?", { thread_ts: "1700000001.000001" }));
    const post = await h.fake.waitForCall("chat.postMessage");
    expect(post.body.thread_ts).toBe("1700000001.000001");
  });

  it("answers a direct message, and ignores the bot's own messages", async () => {
    h = await startSlackHarness();
    await h.event(
      eventCallback({
        type: "message",
        channel_type: "im",
        channel: "D0ALICE",
        user: "U0BOT",
        bot_id: "B0BOT",
        text: "an earlier answer",
        ts: "1700000300.000001",
      }),
    );
    await h.event(
      eventCallback({
        type: "message",
        channel_type: "im",
        channel: "D0ALICE",
        user: "U0ALICE",
        text: "hello",
        ts: "1700000300.000300",
      }),
    );
    const post = await h.fake.waitForCall("chat.postMessage");
    expect(post.body.channel).toBe("D0ALICE");
    // The bot's own answer while chat mode has no LLM: what to set, and the /rl commands instead.
    expect(String(post.body.text)).toContain("LLM_BASE_URL and LLM_MODEL");
    expect(textOf(post.body.blocks)).toContain("/rl help");
    expect(h.fake.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(1);
  });

  it("hands the text, without the bot's mention, to the chat entry point and posts its reply in the thread", async () => {
    const seen: Array<{ text: string; ctx: CommandContext }> = [];
    h = await startSlackHarness({
      chat: async (text, ctx) => {
        seen.push({ text, ctx });
        await ctx.progress?.("thinking…");
        return { title: "Training", text: `You asked: ${text}`, delivery: { anchorRunId: "run-7" } };
      },
    });
    await h.event(mention("<@U0BOT> start gsm8k with <@U0CAROL>"));
    const update = await h.fake.waitForCall("chat.update", (c) => String(c.body.text).startsWith("Training"));
    expect(update.body.text).toBe("Training\nYou asked: start gsm8k with &lt;@U0CAROL&gt;");
    const progress = await h.fake.waitForCall("chat.postMessage");
    expect(progress.body).toMatchObject({ text: "thinking…", thread_ts: "1700000200.000200" });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.text).toBe("start gsm8k with <@U0CAROL>");
    expect(seen[0]?.ctx).toMatchObject({
      via: "chat",
      thread: "1700000200.000200",
      user: { id: "U0ALICE" },
      channel: { platform: "slack", workspace: TEAM, channel: CHANNEL },
    });
    // The reply replaced the progress message, so that message is the run's thread.
    const progressMessage = [...h.fake.messages.values()].find((m) => m.thread_ts === "1700000200.000200");
    expect(update.body.ts).toBe(progressMessage?.ts);
    expect(await h.anchors.waitFor()).toMatchObject({ runId: "run-7", ts: update.body.ts });
  });

  it("turns a failing chat entry point into an error reply instead of silence", async () => {
    h = await startSlackHarness({
      chat: async () => {
        throw new Error("the LLM is down");
      },
    });
    await h.event(mention("<@U0BOT> hi"));
    // Errors are for the asker: an ephemeral message in the thread.
    const post = await h.fake.waitForCall("chat.postEphemeral");
    expect(post.body).toMatchObject({ user: "U0ALICE", channel: CHANNEL, thread_ts: "1700000200.000200" });
    expect(String(post.body.text)).toContain("the LLM is down");
  });
});

// A huge model answer through the real Bolt app: the mention's thread gets a bounded message that says how much was cut.
import { afterEach, describe, expect, it } from "vitest";
import { createChatHandler, type ChatHandler } from "../../adapters/chat/create-chat-handler.ts";
import { blockKitProblems } from "../fakes/slack-block-kit.ts";
import { startFakeLlm, type FakeLlm } from "../fakes/llm-server.ts";
import { CHANNEL, eventCallback } from "./slack-payloads.ts";
import { startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";

let h: SlackHarness | undefined;
let llm: FakeLlm | undefined;

afterEach(async () => {
  await h?.close();
  await llm?.close();
  h = undefined;
  llm = undefined;
});

describe("Slack chat bounds", () => {
  it("posts a 2.4 MB answer cut to a bounded message in the thread, saying how much was left out", async () => {
    const fake = (llm = await startFakeLlm());
    let handler: ChatHandler | undefined;
    h = await startSlackHarness({
      chat: (text, ctx) =>
        (handler ??= createChatHandler(h!.services, { llm: { baseUrl: fake.baseUrl, model: "fake/model" } }))(
          text,
          ctx,
        ),
    });
    fake.script({ text: "x".repeat(2_400_000) });
    await h.event(
      eventCallback({
        type: "app_mention",
        user: "U0ALICE",
        text: "<@U0BOT> tell me everything",
        ts: "1700000200.000200",
        channel: CHANNEL,
      }),
    );
    const answer = await h.fake.waitForCall("chat.update", (c) => textOf(c.body.blocks).includes("more not shown"));
    expect(answer.ok).toBe(true);
    expect(blockKitProblems(answer.body.blocks)).toEqual([]);
    expect(JSON.stringify(answer.body).length).toBeLessThan(20_000);
    expect(textOf(answer.body.blocks)).toContain("2,392,000 more not shown");
  });
});

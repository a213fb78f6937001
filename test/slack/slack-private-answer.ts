// A personal read's private answer in the Slack tests: wait for it through response_url, and post it to the channel.
import type { RecordedCall, RecordedResponse } from "../fakes/slack-api.ts";
import { ALICE, CHANNEL, buttonClick } from "./slack-payloads.ts";
import { buttonsOf, type SlackHarness } from "./slack-harness.ts";

/** The private answer whose fallback text has `title` in it, as its response_url carried it. */
export function privateAnswer(h: SlackHarness, title: string): Promise<RecordedResponse> {
  return h.fake.waitForResponse((r) => r.body.response_type === "ephemeral" && String(r.body.text).includes(title));
}

/** Clicks "Post to channel" on a private answer (as `user`, its asker) and resolves with the public post. */
export async function postToChannel(
  h: SlackHarness,
  answer: RecordedResponse,
  user: { id: string; name: string } = ALICE,
): Promise<RecordedCall> {
  const share = buttonsOf(answer.body.blocks).find((b) => b.text.text === "Post to channel");
  if (!share) throw new Error("the private answer has no Post to channel button");
  const shown = h.fake.ephemerals.items.find((e) => e.text === answer.body.text);
  const messageTs = shown?.ts ?? "1700000000.000009";
  const before = h.fake.calls.items.length;
  await h.click(
    buttonClick({
      button: share,
      user,
      ephemeral: true,
      messageTs,
      responseUrl: h.fake.responseUrl({ channel: CHANNEL, user: user.id, messageTs }),
    }),
  );
  return h.fake.waitForCall("chat.postMessage", (c) => h.fake.calls.items.indexOf(c) >= before);
}

// Names and inert text on Slack: refusals name people as the rest of a message does, never by raw id; text that may
// come from anyone (an environment's description, a log line) shows as typed, and bot posts unfurl nothing.
import { afterEach, describe, expect, it } from "vitest";
import { renderSlack } from "../../adapters/slack/slack-render.ts";
import { ALICE, BOB, CHANNEL, TEAM, slashCommand } from "./slack-payloads.ts";
import { postToChannel, privateAnswer } from "./slack-private-answer.ts";
import { startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const CHANNEL_KEY = { platform: "slack", workspace: TEAM, channel: CHANNEL };

describe("Slack names and inert text", () => {
  it("refuses another person's stop naming the starter and the admins, not their ids", async () => {
    h = await startSlackHarness({
      env: { RL_OPERATORS: `slack:${ALICE.id}`, RL_ADMINS: "slack:U0ADMIN,discord:role:Trainers" },
    });
    h.fake.addUser({ id: BOB.id, name: "bob", displayName: "Bob B" });
    h.fake.addUser({ id: "U0ADMIN", name: "ada", displayName: "Ada" });
    h.services.runs.insert({
      id: "r0bobrun",
      channel: CHANNEL_KEY,
      environment: "gsm8k",
      config: {},
      status: "running",
      createdBy: BOB.id,
    });
    const responseUrl = h.fake.responseUrl();
    await h.slash(slashCommand({ text: "stop r0bobrun", responseUrl }));
    const refusal = await h.fake.waitForResponse((r) => String(r.body.text).includes("was started by"));
    const shown = `${String(refusal.body.text)}\n${textOf(refusal.body.blocks)}`;
    expect(shown).toContain("was started by Bob B");
    expect(shown).toContain("Ask Bob B or one of: Ada (RL_ADMINS)");
    expect(shown).not.toContain(BOB.id);
    expect(shown).not.toContain("U0ADMIN");
    expect(shown).not.toContain("Trainers");
    expect(shown).not.toMatch(/\uE000|\uE001/);
  });

  it("posts with unfurling off and text objects verbatim, which the Slack stand-in accepts", async () => {
    h = await startSlackHarness();
    h.services.runs.insert({
      id: "r1linked",
      channel: CHANNEL_KEY,
      environment: "gsm8k",
      config: {},
      status: "completed",
      createdBy: ALICE.id,
    });
    await h.slash(slashCommand({ text: "status r1linked", responseUrl: h.fake.responseUrl() }));
    // Answered privately first (its response_url asks for no unfurling either), then posted to the channel.
    const answer = await privateAnswer(h, "r1linked");
    expect([answer.body.unfurl_links, answer.body.unfurl_media]).toEqual([false, false]);
    const post = await postToChannel(h, answer);
    expect(post.ok).toBe(true);
    // The WebClient sends a form: Slack reads "false" as false.
    expect([String(post.body.unfurl_links), String(post.body.unfurl_media)]).toEqual(["false", "false"]);
    const texts = JSON.stringify(post.body.blocks);
    expect(texts).toContain('"verbatim":true');
  });

  it("shows an environment's *bold*, _italics_, `code`, ~strike~ and > quote as typed", () => {
    const description =
      "*Bold claim* and _italics_ with `code`, ~strike~ at https://evil.example/x & <!here>\n> quoted";
    const message = renderSlack({
      title: "gsm8k",
      text: description,
      fields: [{ label: "About", value: description }],
    });
    const shown = textOf(message.blocks);
    for (const mark of ["*Bold", "_italics", "`code", "~strike", "\n&gt; quoted"])
      expect(shown).not.toContain(mark.startsWith("\n") ? mark : ` ${mark}`);
    expect(shown).toContain("\u200b*Bold claim*");
    expect(shown).toContain("\u200b_italics_");
    expect(shown).toContain("&lt;!here&gt;");
    expect(shown).toContain("&amp;");
    // A field name with underscores inside a word is left alone: nothing opens there.
    expect(textOf(renderSlack({ text: "group_size and max_token_length" }).blocks)).toContain(
      "group_size and max_token_length",
    );
  });
});

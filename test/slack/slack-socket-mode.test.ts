// Socket Mode end to end: the real Bolt SocketModeReceiver on the fake's websocket; envelopes are acked and answered.
import { afterEach, describe, expect, it } from "vitest";
import { CHANNEL, buttonClick, eventCallback, slashCommand } from "./slack-payloads.ts";
import { APP_TOKEN, buttonsOf, startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";
import { createTestCommands } from "./test-commands.ts";

let h: SlackHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("Slack in Socket Mode", () => {
  it("connects with the app token and acks a slash command envelope, then answers it", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ socketMode: true, commands: t.commands });
    expect(h.adapter.mode).toBe("socket");
    expect(h.adapter.port()).toBeUndefined();
    const open = await h.fake.waitForCall("apps.connections.open");
    expect(open.token).toBe(APP_TOKEN);

    const { envelopeId, acked } = h.fake.socket.send(
      "slash_commands",
      slashCommand({ text: "wait", responseUrl: h.fake.responseUrl() }),
    );
    const ack = await acked;
    expect(ack.envelope_id).toBe(envelopeId);
    // Acked while the command is still waiting: nothing has been posted yet.
    expect(h.fake.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(0);

    t.gate.open();
    const post = await h.fake.waitForCall("chat.postMessage");
    expect(post.body).toMatchObject({ channel: CHANNEL, text: "Waited\nThe gate opened." });
  });

  it("answers /rl help privately through response_url", async () => {
    h = await startSlackHarness({ socketMode: true });
    const url = h.fake.responseUrl();
    await h.fake.socket.send("slash_commands", slashCommand({ text: "help", responseUrl: url })).acked;
    const response = await h.fake.waitForResponse();
    expect(response.body.response_type).toBe("ephemeral");
    expect(textOf(response.body.blocks)).toContain("/rl help");
  });

  it("acks a button click envelope and runs the confirm flow", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ socketMode: true, commands: t.commands, env: { RL_DEFAULT_ROLE: "operate" } });
    const url = h.fake.responseUrl();
    await h.fake.socket.send("slash_commands", slashCommand({ text: "launch tiny", responseUrl: url })).acked;
    const promptResponse = await h.fake.waitForResponse();
    const [confirm] = buttonsOf(promptResponse.body.blocks);
    if (!confirm) throw new Error("no Confirm button");

    const click = h.fake.socket.send(
      "interactive",
      buttonClick({ button: confirm, responseUrl: h.fake.responseUrl(), ephemeral: true }),
    );
    expect((await click.acked).envelope_id).toBe(click.envelopeId);
    const final = await h.fake.waitForCall("chat.update", (c) => String(c.body.text).startsWith("Launched tiny"));
    expect(final.ok).toBe(true);
    expect(await h.anchors.waitFor()).toMatchObject({ runId: "run-42", ts: final.body.ts });
    expect(t.launched).toEqual(["tiny"]);
  });

  it("acks a mention envelope and answers in its thread", async () => {
    h = await startSlackHarness({ socketMode: true });
    const sent = h.fake.socket.send(
      "events_api",
      eventCallback({
        type: "app_mention",
        user: "U0ALICE",
        text: "<@U0BOT> how is training going?",
        ts: "1700000100.000100",
        channel: CHANNEL,
      }),
    );
    await sent.acked;
    const post = await h.fake.waitForCall("chat.postMessage");
    expect(post.body.thread_ts).toBe("1700000100.000100");
    // The bot's own answer while chat mode has no LLM: what to set, and the /rl commands instead.
    expect(String(post.body.text)).toContain("LLM_BASE_URL and LLM_MODEL");
    expect(textOf(post.body.blocks)).toContain("/rl help");
  });
});

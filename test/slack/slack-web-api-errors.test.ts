// Web API failures: 429 Retry-After is waited out, refusals fall back and are logged and told, nothing crashes.
import { afterEach, describe, expect, it } from "vitest";
import { createSlackAdapter } from "../../adapters/slack/slack.ts";
import { RlError } from "../../src/errors.ts";
import { startFakeSlackApi } from "../fakes/slack-api.ts";
import { testServices, tempDir } from "../helpers/test-services.ts";
import { ALICE, CHANNEL, TEAM, slashCommand } from "./slack-payloads.ts";
import { SIGNING_SECRET, captureLog, startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";
import { createTestCommands } from "./test-commands.ts";

let h: SlackHarness | undefined;
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const c of cleanups.splice(0)) await c();
});

const CHANNEL_KEY = { platform: "slack", workspace: TEAM, channel: CHANNEL };

describe("Slack Web API failures", () => {
  it("waits out a 429 with Retry-After on chat.postMessage and the message still arrives", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    h.fake.failNext("chat.postMessage", { status: 429, retryAfter: 1 });
    await h.slash(slashCommand({ text: "echo after the limit", responseUrl: h.fake.responseUrl() }));
    const delivered = await h.fake.waitForCall("chat.postMessage", (c) => c.ok);
    expect(delivered.body.text).toBe("Echo\nafter the limit");
    const attempts = h.fake.calls.filter((c) => c.method === "chat.postMessage");
    expect(attempts.map((c) => c.status)).toEqual([429, 200]);
    expect(attempts[0]?.body.text).toBe(attempts[1]?.body.text);
  });

  it("falls back to the text alone when Slack refuses the blocks", async () => {
    const t = createTestCommands();
    const log = captureLog();
    h = await startSlackHarness({ commands: t.commands, log });
    h.fake.failNext("chat.postMessage", { error: "invalid_blocks" });
    await h.slash(slashCommand({ text: "echo plain please", responseUrl: h.fake.responseUrl() }));
    const delivered = await h.fake.waitForCall("chat.postMessage", (c) => c.ok);
    expect(delivered.body.text).toBe("Echo\nplain please");
    expect(delivered.body.blocks).toEqual([]);
    expect(log.lines.some((l) => l.level === "warn" && l.context.error === "invalid_blocks")).toBe(true);
  });

  it("when the bot is not in the channel, answers through response_url and tells the person how to fix it", async () => {
    const t = createTestCommands();
    const log = captureLog();
    h = await startSlackHarness({ commands: t.commands, log });
    h.fake.notMember(CHANNEL);
    const url = h.fake.responseUrl();
    await h.slash(slashCommand({ text: "echo still seen", responseUrl: url }));
    const shown = await h.fake.waitForResponse((r) => r.body.response_type === "in_channel");
    expect(shown.body.text).toBe("Echo\nstill seen");
    const hint = await h.fake.waitForResponse((r) => r.body.response_type === "ephemeral");
    expect(hint.body.text).toContain("Invite me with /invite");
    const failure = log.lines.find((l) => l.message === "slack chat.postMessage failed");
    expect(failure?.context).toMatchObject({ channel: CHANNEL, error: "not_in_channel" });
  });

  it("when response_url no longer works, sends the private answer with chat.postEphemeral", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    await h.slash(slashCommand({ text: "echo", responseUrl: `${h.fake.baseUrl}/response/expired` }));
    const ephemeral = await h.fake.waitForCall("chat.postEphemeral");
    expect(ephemeral.body).toMatchObject({ channel: CHANNEL, user: ALICE.id });
    expect(String(ephemeral.body.text)).toContain("Usage");
  });

  it("post() puts notices in threads, logs a failing onAnchor, and reports Slack's refusal to its caller", async () => {
    const fake = await startFakeSlackApi({ botToken: "xoxb-anchor-test-token" });
    const log = captureLog();
    const services = testServices(
      {
        SLACK_BOT_TOKEN: "xoxb-anchor-test-token",
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: fake.apiUrl,
        SLACK_PORT: "0",
        RL_TRAINING_ROOT: tempDir(),
      },
      { log },
    );
    const adapter = await createSlackAdapter(services, {
      host: "127.0.0.1",
      onAnchor: () => {
        throw new Error("database is locked");
      },
    });
    cleanups.push(async () => {
      await adapter.stop();
      await services.close();
      await fake.close();
    });
    await adapter.start();
    const { id: ts } = await adapter.post(
      { channel: CHANNEL_KEY, thread: "1700000000.000009" },
      { title: "Digest", text: "step 40" },
    );
    const posted = fake.messages.get(`${CHANNEL}:${ts}`);
    expect(posted).toMatchObject({ thread_ts: "1700000000.000009", text: "Digest\nstep 40" });
    // The message went out, so a failing onAnchor is logged rather than making the caller post it again.
    const anchored = await adapter.post({ channel: CHANNEL_KEY }, { title: "Run", delivery: { anchorRunId: "run-1" } });
    expect(fake.messages.get(`${CHANNEL}:${anchored.id}`)?.text).toBe("Run");
    expect(log.lines.find((l) => l.message === "slack: recording the run's thread failed")?.context).toMatchObject({
      runId: "run-1",
      thread: anchored.id,
    });
    fake.notMember("C0OTHER");
    const refused = adapter.post({ channel: { ...CHANNEL_KEY, channel: "C0OTHER" } }, { text: "x" });
    await expect(refused).rejects.toBeInstanceOf(RlError);
    await expect(refused).rejects.toMatchObject({ code: "UPSTREAM", details: { slackError: "not_in_channel" } });
  });

  it("refuses to start with a token Slack rejects, naming the variable to fix", async () => {
    const fake = await startFakeSlackApi({ botToken: "xoxb-the-right-one" });
    const services = testServices({
      SLACK_BOT_TOKEN: "xoxb-a-wrong-one",
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      RL_TRAINING_ROOT: tempDir(),
    });
    cleanups.push(async () => {
      await services.close();
      await fake.close();
    });
    await expect(createSlackAdapter(services)).rejects.toMatchObject({
      code: "CONFIG",
      message: expect.stringContaining("SLACK_BOT_TOKEN (invalid_auth)"),
    });
  });

  it("refuses to start without a way to receive events", async () => {
    const services = testServices({ SLACK_BOT_TOKEN: "xoxb-some-token", RL_TRAINING_ROOT: tempDir() });
    cleanups.push(() => services.close());
    await expect(createSlackAdapter(services)).rejects.toThrow(/SLACK_APP_TOKEN .* or SLACK_SIGNING_SECRET/);
  });

  it("survives a command whose delivery fails everywhere, and keeps serving", async () => {
    const t = createTestCommands();
    const log = captureLog();
    h = await startSlackHarness({ commands: t.commands, log });
    h.fake.failNext("chat.postMessage", { error: "fatal_error" });
    await h.slash(slashCommand({ text: "echo lost", responseUrl: `${h.fake.baseUrl}/response/expired` }));
    await h.fake.waitForCall("chat.postEphemeral", (c) => textOf(c.body.blocks).includes("fatal_error"));
    await h.slash(slashCommand({ text: "echo next", responseUrl: h.fake.responseUrl() }));
    const next = await h.fake.waitForCall("chat.postMessage", (c) => c.ok);
    expect(next.body.text).toBe("Echo\nnext");
    expect(log.lines.some((l) => l.level === "error" && l.context.error === "fatal_error")).toBe(true);
  });
});

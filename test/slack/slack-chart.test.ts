// Charts on Slack end to end: the PNG goes up with files.uploadV2 next to the message; ephemeral replies and failures keep the sparkline.
import { afterEach, describe, expect, it } from "vitest";
import { pngSize } from "../fakes/discord-attachments.ts";
import { CHANNEL, TEAM, eventCallback, slashCommand } from "./slack-payloads.ts";
import { captureLog, startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";
import { createTestCommands, rewardChart } from "./test-commands.ts";

let h: SlackHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

const CHANNEL_KEY = { platform: "slack", workspace: TEAM, channel: CHANNEL };
const methods = (harness: SlackHarness): string[] => harness.fake.calls.items.map((c) => c.method);
const uploadCalls = (harness: SlackHarness) => harness.fake.calls.filter((c) => c.method.startsWith("files."));

describe("Slack charts", () => {
  it("post() into a run's thread uploads the chart as a PNG into that thread, after the message", async () => {
    h = await startSlackHarness();
    const anchor = await h.adapter.post({ channel: CHANNEL_KEY }, { title: "Run r1 started" });
    const { id: ts } = await h.adapter.post(
      { channel: CHANNEL_KEY, thread: anchor.id },
      { title: "Digest", chart: rewardChart() },
    );

    const upload = await h.fake.uploads.waitFor();
    // stop() waits for the upload post() left running; then nothing more can arrive.
    await h.adapter.stop();
    expect(h.fake.uploads.items).toHaveLength(1);
    expect(upload).toMatchObject({
      channel: CHANNEL,
      thread_ts: anchor.id,
      filename: "reward.png",
      title: "Reward mean by step",
      isPng: true,
    });
    expect(upload.bytes.length).toBe(upload.declaredLength);
    expect(pngSize(upload.bytes)).toEqual({ width: 600, height: 300 });
    expect(upload.altText).toContain("Reward mean by step");
    // The message went first, with the sparkline in it, so it stands on its own if the picture never arrives.
    const order = methods(h);
    expect(order.indexOf("files.getUploadURLExternal")).toBeGreaterThan(order.lastIndexOf("chat.postMessage"));
    expect(order.filter((m) => m.startsWith("files."))).toEqual([
      "files.getUploadURLExternal",
      "files.completeUploadExternal",
    ]);
    const posted = h.fake.messages.get(`${CHANNEL}:${ts}`);
    expect(posted?.thread_ts).toBe(anchor.id);
    expect(textOf(posted?.blocks)).toMatch(/Reward mean by step\*\n`[▁▂▃▄▅▆▇█]+`/);
  });

  it("post() to the channel uploads into the channel itself, not a thread", async () => {
    h = await startSlackHarness();
    await h.adapter.post({ channel: CHANNEL_KEY }, { title: "Digest", chart: rewardChart(3) });
    const upload = await h.fake.uploads.waitFor();
    expect(upload.channel).toBe(CHANNEL);
    expect(upload.thread_ts).toBeUndefined();
    const complete = await h.fake.waitForCall("files.completeUploadExternal");
    expect(complete.body.thread_ts).toBeUndefined();
    expect(complete.body.files).toEqual([{ id: upload.fileId, title: "Reward mean by step" }]);
  });

  it("a public /rl answer with a chart gets the PNG in its channel", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    await h.slash(slashCommand({ text: "plot", responseUrl: h.fake.responseUrl() }));
    const upload = await h.fake.uploads.waitFor();
    expect(upload).toMatchObject({ channel: CHANNEL, filename: "reward.png", isPng: true });
    expect(upload.thread_ts).toBeUndefined();
    const post = h.fake.calls.items.find((c) => c.method === "chat.postMessage");
    expect(post?.body.channel).toBe(CHANNEL);
    expect(textOf(post?.body.blocks)).toContain("Reward mean by step");
  });

  it("a chat answer with a chart gets the PNG in the mention's thread", async () => {
    h = await startSlackHarness({ chat: async () => ({ text: "Here is how it went.", chart: rewardChart() }) });
    await h.event(
      eventCallback({
        type: "app_mention",
        user: "U0ALICE",
        text: "<@U0BOT> how is r1 doing?",
        ts: "1700000200.000200",
        channel: CHANNEL,
      }),
    );
    const upload = await h.fake.uploads.waitFor();
    expect(upload).toMatchObject({ channel: CHANNEL, thread_ts: "1700000200.000200", isPng: true });
  });

  it("an ephemeral answer keeps the sparkline only: a file cannot be ephemeral", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    await h.slash(slashCommand({ text: "plot private", responseUrl: h.fake.responseUrl() }));
    const response = await h.fake.waitForResponse();
    expect(response.body.response_type).toBe("ephemeral");
    expect(textOf(response.body.blocks)).toMatch(/`[▁▂▃▄▅▆▇█]+`/);
    // stop() waits for the command's handler to finish, so nothing can still be on its way.
    await h.adapter.stop();
    expect(uploadCalls(h)).toEqual([]);
    expect(h.fake.uploads.items).toEqual([]);
  });

  it("a refused upload (no files:write scope) is logged and never fails the post", async () => {
    const log = captureLog();
    h = await startSlackHarness({ log });
    h.fake.failNext("files.getUploadURLExternal", { error: "missing_scope" });
    const { id: ts } = await h.adapter.post({ channel: CHANNEL_KEY }, { title: "Digest", chart: rewardChart() });
    await h.adapter.stop();
    expect(textOf(h.fake.messages.get(`${CHANNEL}:${ts}`)?.blocks)).toMatch(/`[▁▂▃▄▅▆▇█]+`/);
    expect(h.fake.uploads.items).toEqual([]);
    const warning = log.lines.find((l) => l.message === "slack file upload failed");
    expect(warning?.level).toBe("warn");
    expect(warning?.context).toMatchObject({ channel: CHANNEL, filename: "reward.png", error: "missing_scope" });
    expect(String(warning?.context.hint)).toContain("files:write");
  });

  it("a chart that cannot be drawn is logged, uploads nothing, and the message keeps its sparkline", async () => {
    const log = captureLog();
    h = await startSlackHarness({
      log,
      renderChart: async () => {
        throw new Error("resvg exploded");
      },
    });
    const { id: ts } = await h.adapter.post({ channel: CHANNEL_KEY }, { title: "Digest", chart: rewardChart() });
    await h.adapter.stop();
    expect(textOf(h.fake.messages.get(`${CHANNEL}:${ts}`)?.blocks)).toMatch(/`[▁▂▃▄▅▆▇█]+`/);
    expect(uploadCalls(h)).toEqual([]);
    expect(log.lines.some((l) => l.level === "warn" && l.message.includes("chart image failed"))).toBe(true);
  });

  it("redacts a secret in the chart title before it is drawn or named", async () => {
    const seen: string[] = [];
    h = await startSlackHarness({
      renderChart: async (chart) => {
        seen.push(chart.title);
        return Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      },
    });
    const token = h.services.config.slack.botToken ?? "";
    await h.adapter.post({ channel: CHANNEL_KEY }, { title: "Digest", chart: rewardChart(5, `Reward ${token}`) });
    const upload = await h.fake.uploads.waitFor();
    expect(seen.join()).not.toContain(token);
    expect(upload.title).not.toContain(token);
    expect(upload.title).toContain("[redacted]");
  });
});

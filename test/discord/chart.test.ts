// Charts on Discord end to end: reward.png uploaded as multipart (payload_json + files[0]) and shown as the chart embed's image.
import { describe, expect, it } from "vitest";
import { pngSize } from "../fakes/discord-attachments.ts";
import { ALICE, IDS, type RecordedCall } from "../fakes/discord-gateway.ts";
import { bodyOf, embedsOf, isEditOriginal, messageIdOf, harnessPerTest } from "./harness.ts";
import { rewardChart } from "./test-commands.ts";

const start = harnessPerTest();

const SPARKLINE = /```\n[▁▂▃▄▅▆▇█]+\n```/;

/** The call carried exactly one file, reward.png, a 600x300 PNG. */
function expectChartFile(call: RecordedCall): void {
  expect(call.files.map((f) => ({ field: f.field, name: f.name, type: f.contentType }))).toEqual([
    { field: "files[0]", name: "reward.png", type: "image/png" },
  ]);
  expect(pngSize(call.files[0]?.data ?? Buffer.alloc(0))).toEqual({ width: 600, height: 300 });
}

/** The embed that shows the chart: its image points at the upload, and its text keeps the sparkline. */
function chartEmbed(call: RecordedCall): Record<string, unknown> | undefined {
  return embedsOf(call).find((e) => (e["image"] as { url?: string } | undefined)?.url === "attachment://reward.png");
}

describe("Discord charts", () => {
  it("attaches reward.png to a command's reply and shows it in the chart's embed", async () => {
    const h = await start();
    const call = await h.fake.slash("plot").callback();
    expect(bodyOf(call)["type"]).toBe(4);
    expectChartFile(call);
    const data = bodyOf(call)["data"] as { attachments?: Array<{ id: string }> };
    expect(data.attachments?.map((a) => a.id)).toEqual(["0"]);
    const embed = chartEmbed(call);
    expect(embed?.["title"]).toBe("Reward mean by step");
    expect(String(embed?.["description"])).toMatch(SPARKLINE);
    // What Discord keeps: the attachment, and the embed image pointing at its CDN URL.
    const stored = h.fake.message(messageIdOf(call));
    const attachments = stored?.["attachments"] as Array<Record<string, unknown>>;
    expect(attachments).toHaveLength(1);
    expect(attachments[0]).toMatchObject({
      filename: "reward.png",
      content_type: "image/png",
      width: 600,
      height: 300,
    });
    const image = (stored?.["embeds"] as Array<{ image?: { url?: string } }>).find((e) => e.image)?.image;
    expect(image?.url).toBe(attachments[0]?.["url"]);
  });

  it("attaches it to the edit that answers a deferred command, not to the progress edits", async () => {
    const h = await start();
    const interaction = h.fake.slash("plotslow");
    expect(bodyOf(await interaction.callback())["type"]).toBe(5);
    const done = await h.fake.waitForCall(
      (c) => isEditOriginal(interaction.token)(c) && embedsOf(c)[0]?.["title"] === "Slow results",
      "the final edit",
    );
    expectChartFile(done);
    expect(chartEmbed(done)).toBeDefined();
    const progress = h.fake.calls.filter((c) => isEditOriginal(interaction.token)(c) && c !== done);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((c) => c.files.length === 0)).toBe(true);
    expect(h.fake.message(messageIdOf(done))?.["attachments"]).toHaveLength(1);
  });

  it("attaches it to a private answer too (Discord files can be ephemeral)", async () => {
    const h = await start();
    const call = await h.fake.slash("plot", { private: true }).callback();
    expect((bodyOf(call)["data"] as { flags?: number }).flags).toBe(64);
    expectChartFile(call);
  });

  it("draws thousands of points (downsampled) into the same small picture", async () => {
    const h = await start();
    const call = await h.fake.slash("plot", { points: 5000 }).callback();
    expectChartFile(call);
    expect(String(chartEmbed(call)?.["description"])).toContain("5000 points");
  });

  it("post() uploads the chart with a digest, into a channel or a thread", async () => {
    const h = await start();
    const { id } = await h.adapter.post({ channel: h.channel }, { title: "Digest", chart: rewardChart() });
    const channelPost = h.fake.calls.find((c) => c.method === "POST" && c.path === `/channels/${IDS.channel}/messages`);
    expectChartFile(channelPost!);
    expect(bodyOf(channelPost!)["attachments"]).toEqual([{ id: "0", filename: "reward.png" }]);
    expect(chartEmbed(channelPost!)).toBeDefined();
    expect(h.fake.message(id)?.["attachments"]).toHaveLength(1);

    const threaded = await h.adapter.post(
      { channel: h.channel, thread: IDS.thread },
      { title: "Digest", chart: rewardChart() },
    );
    expect(h.fake.message(threaded.id)?.["channel_id"]).toBe(IDS.thread);
    expect(h.fake.message(threaded.id)?.["attachments"]).toHaveLength(1);
  });

  it("answers a mention running '/rl plot' with the picture", async () => {
    const h = await start();
    const asked = h.fake.say(ALICE, `<@${IDS.bot}> /rl plot`);
    const reply = await h.fake.waitForCall(
      (c) =>
        c.method === "POST" &&
        c.path === `/channels/${IDS.channel}/messages` &&
        (bodyOf(c)["message_reference"] as { message_id?: string } | undefined)?.message_id === asked["id"],
      "the reply to the mention",
    );
    expectChartFile(reply);
    expect(chartEmbed(reply)).toBeDefined();
  });

  it("keeps the sparkline and sends no file when the chart cannot be drawn", async () => {
    const h = await start({
      adapter: {
        renderChart: async () => {
          throw new Error("resvg exploded");
        },
      },
    });
    const call = await h.fake.slash("plot").callback();
    expect(call.files).toEqual([]);
    expect(embedsOf(call).some((e) => e["image"])).toBe(false);
    expect(embedsOf(call).some((e) => SPARKLINE.test(String(e["description"])))).toBe(true);
    expect(h.logs.some((l) => l.level === "warn" && l.message.includes("chart image failed"))).toBe(true);
  });

  it("sends the digest without the picture when Discord refuses the upload (no Attach Files permission)", async () => {
    const h = await start();
    h.fake.fault({ method: "POST", path: /^\/channels\/\d+\/messages$/, status: 403 });
    const { id } = await h.adapter.post({ channel: h.channel }, { title: "Digest", chart: rewardChart() });
    const posts = h.fake.calls.filter((c) => c.method === "POST" && c.path === `/channels/${IDS.channel}/messages`);
    expect(posts.map((c) => [c.status, c.files.length])).toEqual([
      [403, 1],
      [200, 0],
    ]);
    expect(embedsOf(posts[1]!).some((e) => SPARKLINE.test(String(e["description"])))).toBe(true);
    expect(embedsOf(posts[1]!).some((e) => e["image"])).toBe(false);
    expect(h.fake.message(id)?.["attachments"]).toEqual([]);
    expect(h.logs.some((l) => l.message === "discord: message with the chart image refused; sending it without")).toBe(
      true,
    );
  });
});

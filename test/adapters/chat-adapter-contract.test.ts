// One contract suite run against every ChatAdapter (real Bolt and discord.js on the local fakes, and the console):
// post gives a MessageRef, threadOf(ref) is where later messages about it go, update(ref) edits it, refusals are UPSTREAM.
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatAdapter, MessageRef } from "../../adapters/chat-adapter.ts";
import { createConsoleAdapter } from "../../adapters/console/console.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import { startHarness, stopHarness } from "../discord/harness.ts";
import { startSlackHarness, textOf } from "../slack/slack-harness.ts";
import { CHANNEL, TEAM } from "../slack/slack-payloads.ts";
import { testServices } from "../helpers/test-services.ts";

interface Subject {
  adapter: ChatAdapter;
  channel: ChannelKey;
  /** A channel the bot may not post in. */
  refused?: ChannelKey;
  /** What the platform now shows of the message, as text. */
  shown(ref: MessageRef): string;
  /** The thread the platform put the message in (undefined: the channel itself). */
  threadShown(ref: MessageRef): string | undefined;
  close(): Promise<void>;
}

const subjects: Record<string, () => Promise<Subject>> = {
  slack: async () => {
    const h = await startSlackHarness();
    h.fake.notMember("C0REFUSED");
    const channel = { platform: "slack", workspace: TEAM, channel: CHANNEL };
    return {
      adapter: h.adapter,
      channel,
      refused: { ...channel, channel: "C0REFUSED" },
      shown: (ref) => textOf(h.fake.messages.get(`${ref.channel.channel}:${ref.id}`)?.blocks),
      threadShown: (ref) => h.fake.messages.get(`${ref.channel.channel}:${ref.id}`)?.thread_ts,
      close: () => h.close(),
    };
  },
  discord: async () => {
    const h = await startHarness();
    return {
      adapter: h.adapter,
      channel: h.channel,
      refused: { ...h.channel, channel: "1100000000000000999" },
      shown: (ref) => JSON.stringify(h.fake.message(ref.id)?.["embeds"] ?? []),
      // A run's message starts a thread with its own id; a message in it lives in that thread's channel.
      threadShown: (ref) => {
        const message = h.fake.message(ref.id);
        const channelId = message?.["channel_id"] as string | undefined;
        return channelId !== h.fake.ids.channel
          ? channelId
          : (message?.["message_reference"] as { message_id?: string } | undefined)?.message_id;
      },
      close: () => stopHarness(h),
    };
  },
  console: async () => {
    const services = testServices();
    const output = new PassThrough();
    let printed = "";
    output.on("data", (chunk: Buffer) => (printed += chunk.toString("utf8")));
    const adapter = createConsoleAdapter(services, { input: new PassThrough(), output });
    await adapter.start();
    return {
      adapter,
      channel: { platform: "console", workspace: "local", channel: "console" },
      shown: () => printed,
      threadShown: () => undefined,
      close: async () => {
        await adapter.stop();
        await services.close();
      },
    };
  },
};

let open: Subject | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe.each(Object.keys(subjects))("ChatAdapter: %s", (platform) => {
  const start = async () => (open = await subjects[platform]!());

  it("post gives a reference to the message, in the channel it was posted to", async () => {
    const s = await start();
    expect(s.adapter.platform).toBe(platform);
    const ref = await s.adapter.post({ channel: s.channel }, { title: "Run r1 started", text: "step 0" });
    expect(ref.channel).toEqual(s.channel);
    expect(ref.id).toMatch(/\S/);
    expect(s.shown(ref)).toContain("Run r1 started");
  });

  it("a post into threadOf(ref) goes beside that message, where the platform has threads", async () => {
    const s = await start();
    const first = await s.adapter.post({ channel: s.channel }, { title: "Run r2 started" });
    const thread = s.adapter.threadOf(first);
    const next = await s.adapter.post({ channel: s.channel, thread }, { title: "Run r2 completed" });
    expect(s.shown(next)).toContain("Run r2 completed");
    expect(s.threadShown(next)).toBe(s.adapter.threads ? first.id : undefined);
    // A message in a thread names the same thread for what follows it.
    if (s.adapter.threads) expect(s.adapter.threadOf(next)).toBe(thread);
  });

  it("update(ref) replaces what the message shows", async () => {
    const s = await start();
    const ref = await s.adapter.post({ channel: s.channel }, { title: "Working on /rl envs" });
    const updated = await s.adapter.update(ref, { title: "Environments (3)" });
    expect(updated).toEqual(ref);
    expect(s.shown(ref)).toContain("Environments (3)");
  });
});

// A terminal has nothing that could refuse; the platforms do.
describe.each(["slack", "discord"])("ChatAdapter: %s refusals", (platform) => {
  it("a platform's refusal is an UPSTREAM error the outbox can retry", async () => {
    const s = (open = await subjects[platform]!());
    const refused = s.refused!;
    await expect(s.adapter.post({ channel: refused }, { title: "x" })).rejects.toMatchObject({ code: "UPSTREAM" });
    await expect(
      s.adapter.update({ channel: refused, id: "1100000000000000998" }, { title: "x" }),
    ).rejects.toMatchObject({ code: "UPSTREAM" });
  });
});

// The outbox posting through the real Slack adapter: a 429's Retry-After sets the retry, a refusal that will not clear
// stops the row and shows in /rl status, other failures retry with backoff, and the post returns as soon as Slack took it.
import { afterEach, describe, expect, it } from "vitest";
import type { OutboxKind } from "../../db/outbox.ts";
import { captureLog, startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";
import { CHANNEL, TEAM, slashCommand } from "./slack-payloads.ts";
import { drainOverHours, outboxRow } from "../helpers/outbox-rows.ts";

let h: SlackHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

const CHANNEL_KEY = { platform: "slack", workspace: TEAM, channel: CHANNEL };
const THREAD = "1700000000.000001";

/** A finished run of this channel, with its thread, and its notice queued. */
function queueNotice(harness: SlackHarness, runId: string, at: number, kind: OutboxKind = "notice"): string {
  harness.services.runs.insert({
    id: runId,
    channel: CHANNEL_KEY,
    thread: THREAD,
    environment: "foo",
    config: {},
    status: "completed",
    createdBy: "U0ALICE",
  });
  const key = `${kind}:${runId}:completed`;
  harness.services.outbox.enqueue(
    { dedupeKey: key, target: { channel: CHANNEL_KEY }, kind, runId, reply: { title: `Run ${runId} completed` } },
    at,
  );
  return key;
}

const posts = (harness: SlackHarness) => harness.fake.calls.filter((c) => c.method === "chat.postMessage");

describe("Slack delivery from the outbox", () => {
  it("a 429 sets the row's next try to its Retry-After (the WebClient does not wait it out), then the notice is posted once", async () => {
    let clock = 1_000_000;
    h = await startSlackHarness({ now: () => clock });
    const key = queueNotice(h, "r1", clock);
    h.fake.failNext("chat.postMessage", { status: 429, retryAfter: 30 });
    h.services.outboxSender.register("slack", h.adapter.post);
    await h.services.outboxSender.drain();

    expect(posts(h).map((c) => c.status)).toEqual([429]);
    expect(outboxRow(h.services, key)).toMatchObject({
      status: "pending",
      next_attempt_at: clock + 30_000,
      attempts: 0,
    });
    clock += 29_000;
    await h.services.outboxSender.drain();
    expect(posts(h)).toHaveLength(1);

    clock += 1_000;
    await h.services.outboxSender.drain();
    expect(posts(h).map((c) => c.status)).toEqual([429, 200]);
    const sent = outboxRow(h.services, key);
    expect(sent.status).toBe("sent");
    const delivered = [...h.fake.messages.values()].filter((m) => m.text === "Run r1 completed");
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ ts: sent.message_id, thread_ts: THREAD });
  });

  it("not_in_channel stops the row, is logged once, and /rl status of the run says what to do", async () => {
    let clock = 2_000_000;
    const log = captureLog();
    h = await startSlackHarness({ now: () => clock, log });
    const key = queueNotice(h, "r2", clock);
    h.fake.notMember(CHANNEL);
    h.services.outboxSender.register("slack", h.adapter.post);
    await drainOverHours(h.services, (ms) => (clock += ms));

    expect(posts(h)).toHaveLength(1);
    const row = outboxRow(h.services, key);
    expect(row.status).toBe("dead");
    expect(row.undeliverable).toMatch(/^not_in_channel — invite the bot to the channel/);
    const said = log.lines.filter((l) => l.message === "message cannot be delivered; not trying again");
    expect(said).toHaveLength(1);
    expect(said[0]?.context).toMatchObject({ runId: "r2", reason: "not_in_channel" });

    // The person asks; the bot still cannot post there, so the answer comes through response_url.
    await h.slash(slashCommand({ text: "status r2", responseUrl: h.fake.responseUrl() }));
    // A status look-up is answered privately, through response_url, which works in a channel the bot is not in.
    const answer = await h.fake.waitForResponse((r) => r.body.response_type === "ephemeral");
    expect(textOf(answer.body.blocks)).toContain("Notice not delivered");
    expect(textOf(answer.body.blocks)).toContain("not_in_channel — invite the bot to the channel");
  });

  it.each(["channel_not_found", "is_archived", "account_inactive", "invalid_auth"])(
    "%s stops the row too",
    async (error) => {
      let clock = 3_000_000;
      h = await startSlackHarness({ now: () => clock });
      const key = queueNotice(h, "r3", clock);
      h.fake.failNext("chat.postMessage", { error });
      h.services.outboxSender.register("slack", h.adapter.post);
      await h.services.outboxSender.drain();
      clock += 60 * 60_000;
      await h.services.outboxSender.drain();
      expect(posts(h)).toHaveLength(1);
      expect(outboxRow(h.services, key)).toMatchObject({
        status: "dead",
        undeliverable: expect.stringMatching(new RegExp(`^${error} — `)),
      });
    },
  );

  it("a transient refusal (internal_error) is retried with backoff and then delivered", async () => {
    let clock = 4_000_000;
    h = await startSlackHarness({ now: () => clock });
    const key = queueNotice(h, "r4", clock);
    h.fake.failNext("chat.postMessage", { error: "internal_error" });
    h.services.outboxSender.register("slack", h.adapter.post);
    await h.services.outboxSender.drain();
    expect(outboxRow(h.services, key)).toMatchObject({
      status: "pending",
      attempts: 1,
      next_attempt_at: clock + 2_000,
      undeliverable: null,
    });
    clock += 2_000;
    await h.services.outboxSender.drain();
    expect(outboxRow(h.services, key).status).toBe("sent");
    expect(posts(h).map((c) => c.ok)).toEqual([false, true]);
  });

  it("post() returns once Slack took the message, before the run's thread is recorded", async () => {
    let release!: () => void;
    const recorded = new Promise<void>((resolve) => (release = resolve));
    h = await startSlackHarness({ onAnchor: () => recorded });
    const posted = await h.adapter.post(
      { channel: CHANNEL_KEY },
      { title: "Run r5 started", delivery: { anchorRunId: "r5" } },
    );
    expect(h.fake.messages.get(`${CHANNEL}:${posted.id}`)?.text).toBe("Run r5 started");
    expect(h.anchors.items).toHaveLength(0);
    release();
    await h.anchors.waitFor((a) => a.runId === "r5");
  });

  it("a row queued by the previous version (anchorRunId at the reply's top level) still anchors the run when posted", async () => {
    h = await startSlackHarness();
    h.services.db
      .prepare(
        `INSERT INTO outbox (dedupe_key, platform, workspace, channel, thread, kind, run_id, reply_json, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        "notice:r8:started",
        "slack",
        TEAM,
        CHANNEL,
        null,
        "notice",
        "r8",
        '{"title":"Run r8 started","anchorRunId":"r8"}',
        0,
        0,
      );
    h.services.outboxSender.register("slack", h.adapter.post);
    await h.services.outboxSender.drain();
    expect(outboxRow(h.services, "notice:r8:started").status).toBe("sent");
    const anchor = await h.anchors.waitFor((a) => a.runId === "r8");
    expect(h.fake.messages.get(`${CHANNEL}:${anchor.ts}`)?.text).toBe("Run r8 started");
  });
});

// The outbox posting through the real discord.js client: a 429's retry_after sets the retry, a refusal that will not
// clear (10003, 50001, 50013) stops the row and shows in /rl status, and every post carries its nonce.
import { describe, expect, it } from "vitest";
import type { RecordedCall } from "../fakes/discord-gateway.ts";
import { embedsOf, harnessPerTest, type Harness } from "./harness.ts";
import { drainOverHours, drainUntilSent, outboxRow } from "../helpers/outbox-rows.ts";

const start = harnessPerTest();

/** A finished run of #training and its queued notice (the run's thread is the channel itself, so nothing waits for one). */
function queueNotice(harness: Harness, runId: string): string {
  harness.services.runs.insert({
    id: runId,
    channel: harness.channel,
    thread: harness.channel.channel,
    environment: "foo",
    config: {},
    status: "completed",
    createdBy: "1000000000000000001",
  });
  const key = `notice:${runId}:completed`;
  harness.services.outbox.enqueue(
    {
      dedupeKey: key,
      target: { channel: harness.channel },
      kind: "notice",
      runId,
      reply: { title: `Run ${runId} completed` },
    },
    harness.services.now(),
  );
  return key;
}

const posts = (harness: Harness): RecordedCall[] =>
  harness.fake.calls.filter((c) => c.method === "POST" && c.path === `/channels/${harness.fake.ids.channel}/messages`);
const titled = (harness: Harness, title: string) =>
  harness.fake
    .channelMessages(harness.fake.ids.channel)
    .filter((m) => (m["embeds"] as Array<{ title?: string }>)[0]?.title === title);

describe("Discord delivery from the outbox", () => {
  it("a 429 sets the row's next try to its retry_after (discord.js does not wait it out), then the notice is posted once", async () => {
    const h = await start();
    const key = queueNotice(h, "r1");
    h.fake.fault({ method: "POST", path: /^\/channels\/\d+\/messages$/, status: 429, retryAfter: 2 });
    const before = Date.now();
    h.services.outboxSender.register("discord", h.adapter.post);
    await h.services.outboxSender.drain();

    expect(posts(h).map((c) => c.status)).toEqual([429]);
    const waiting = outboxRow(h.services, key);
    expect(waiting).toMatchObject({ status: "pending", attempts: 0 });
    expect(waiting.next_attempt_at).toBeGreaterThanOrEqual(before + 2_000);

    await drainUntilSent(h.services, key);
    expect(posts(h).map((c) => c.status)).toEqual([429, 200]);
    const kept = titled(h, "Run r1 completed");
    expect(kept).toHaveLength(1);
    expect(outboxRow(h.services, key)).toMatchObject({ status: "sent", message_id: kept[0]?.["id"] });
  });

  it.each([
    ["send", "Missing Permissions (50013)", "Send Messages"],
    ["access", "Missing Access (50001)", "View Channel"],
    ["deleted", "Unknown Channel (10003)", "deleted"],
  ] as const)(
    "a channel where the bot lost %s stops the row, is logged once, and /rl status shows why",
    async (what, reason, hint) => {
      let clock = 5_000_000;
      const h = await start({ now: () => clock });
      const key = queueNotice(h, "r2");
      if (what === "deleted") h.fake.deleteChannel(h.fake.ids.channel);
      else h.fake.deny(h.fake.ids.channel, what);
      h.services.outboxSender.register("discord", h.adapter.post);
      await drainOverHours(h.services, (ms) => (clock += ms));

      expect(posts(h)).toHaveLength(1);
      const row = outboxRow(h.services, key);
      expect(row.status).toBe("dead");
      expect(row.undeliverable).toContain(`${reason} — `);
      expect(row.undeliverable).toContain(hint);
      const said = h.logs.filter((l) => l.message === "message cannot be delivered; not trying again");
      expect(said).toHaveLength(1);
      expect(said[0]).toMatchObject({ runId: "r2", reason });

      if (what === "deleted") return; // no channel left to ask in
      const answer = await h.fake.slash("status", { run: "r2" }).callback();
      const fields = (embedsOf(answer)[0]?.["fields"] ?? []) as Array<{ name: string; value: string }>;
      expect(fields.find((f) => f.name === "Notice not delivered")?.value).toContain(reason);
    },
  );

  it("a transient failure (502) is retried with backoff, with the same nonce, and delivered once", async () => {
    let clock = 6_000_000;
    const h = await start({ now: () => clock });
    const key = queueNotice(h, "r3");
    // discord.js retries a 5xx itself (3 times): four in a row reach the outbox.
    h.fake.fault({ method: "POST", path: /^\/channels\/\d+\/messages$/, status: 502, times: 4 });
    h.services.outboxSender.register("discord", h.adapter.post);
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
    expect(posts(h).map((c) => c.status)).toEqual([502, 502, 502, 502, 200]);
    const nonces = new Set(posts(h).map((c) => (c.body as { nonce?: string }).nonce));
    expect(nonces.size).toBe(1);
    expect(titled(h, "Run r3 completed")).toHaveLength(1);
  });
});

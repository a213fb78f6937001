// Personal reads on Discord through real discord.js: answered ephemerally (flags 64), paged and turned in place on the
// private message, and posted to the channel by its "Post to channel" button, naming who shared it without a ping.
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../commands/index.ts";
import { ALICE, BOB, type Json } from "../fakes/discord-gateway.ts";
import { bigFieldNames } from "../helpers/big-environment.ts";
import {
  bodyOf,
  buttonsOf,
  embedsOf,
  harnessPerTest,
  isFollowup,
  messageIdOf,
  onBigEnvironment,
  type Harness,
} from "./harness.ts";

const start = harnessPerTest();

const flagsOf = (call: { body: unknown }): number =>
  Number(((bodyOf(call as never)["data"] ?? {}) as { flags?: number }).flags ?? 0);

/** The channel as everyone sees it, through the channel endpoint (the fake keeps Discord's rule for ephemerals). */
async function channelHistory(harness: Harness): Promise<Json[]> {
  const res = await fetch(`${harness.fake.apiUrl}/v10/channels/${harness.fake.ids.channel}/messages?limit=100`, {
    headers: { authorization: `Bot ${harness.fake.token}` },
  });
  return (await res.json()) as Json[];
}

function insertRuns(harness: Harness, n: number): void {
  for (let i = 0; i < n; i++)
    harness.services.runs.insert({
      id: `r${String(i).padStart(3, "0")}x`,
      channel: harness.channel,
      environment: "foo",
      config: {},
      status: "completed",
      createdBy: BOB.id,
    });
}

describe("Discord personal reads", () => {
  it("answers /rl runs ephemerally, turns to older runs in place, and posts the list to the channel when asked", async () => {
    const h = await start({ adapter: { commands: COMMANDS } });
    insertRuns(h, 45);
    const first = await h.fake.slash("runs").callback();
    expect(bodyOf(first)["type"]).toBe(4);
    expect(flagsOf(first)).toBe(64);
    expect(String(embedsOf(first)[0]?.["title"])).toBe("Runs: 1–20 of 45 (page 1 of 3)");
    expect(buttonsOf(first).map((b) => b.label)).toEqual(["Older ▶", "Post to channel"]);
    const messageId = messageIdOf(first);
    // Nobody else sees it: not in the channel, and not reachable through the channel's endpoints.
    expect((await channelHistory(h)).map((m) => m["id"])).not.toContain(messageId);
    const direct = await fetch(`${h.fake.apiUrl}/v10/channels/${h.fake.ids.channel}/messages/${messageId}`, {
      headers: { authorization: `Bot ${h.fake.token}` },
    });
    expect(direct.status).toBe(404);

    // Older replaces the private answer (type 7): still private, one message.
    const older = buttonsOf(first).find((b) => b.label.startsWith("Older"))!;
    const second = await h.fake.click(messageId, older.custom_id).callback();
    expect(bodyOf(second)["type"]).toBe(7);
    expect(String(embedsOf(second)[0]?.["title"])).toBe("Runs: 21–40 of 45 (page 2 of 3)");
    expect(Number(h.fake.message(messageId)?.["flags"]) & 64).toBe(64);
    expect(buttonsOf(second).map((b) => b.label)).toEqual(["◀ Newer", "Older ▶", "Post to channel"]);

    // Post to channel: the private copy closes, and the same answer goes to everyone, naming who shared it.
    const share = buttonsOf(second).find((b) => b.label === "Post to channel")!;
    const click = h.fake.click(messageId, share.custom_id);
    const closed = await click.callback();
    expect(bodyOf(closed)["type"]).toBe(7);
    expect(buttonsOf(closed)).toEqual([]);
    const posted = await h.fake.waitForCall(isFollowup(click.token), "the shared answer");
    const body = bodyOf(posted);
    expect(Number(body["flags"] ?? 0) & 64).toBe(0);
    expect(body["content"]).toBe(`Shared by <@${ALICE.id}>`);
    expect(body["allowed_mentions"]).toEqual({ parse: [] });
    expect(String(embedsOf(posted)[0]?.["title"])).toBe("Runs: 21–40 of 45 (page 2 of 3)");
    // Its buttons run the same listing for whoever clicks; it is not offered for posting again.
    expect(buttonsOf(posted).map((b) => b.label)).toEqual(["◀ Newer", "Older ▶"]);
    expect((await channelHistory(h)).map((m) => m["id"])).toContain(messageIdOf(posted));
  });

  it("posts a page of a paged config to the channel, whose pages then turn for everyone", async () => {
    const h = await start(onBigEnvironment());
    await h.services.env.selectEnvironment(h.channel, "big");
    const first = await h.fake.slash("config").callback();
    expect(flagsOf(first)).toBe(64);
    const messageId = messageIdOf(first);
    const pageCount = Number(/\(page 1 of (\d+)\)/.exec(String(embedsOf(first)[0]?.["title"]))?.[1]);
    const next = buttonsOf(first).find((b) => b.label.startsWith("Next"))!;
    const second = await h.fake.click(messageId, next.custom_id).callback();
    const share = buttonsOf(second).find((b) => b.label === "Post to channel")!;
    const click = h.fake.click(messageId, share.custom_id);
    await click.callback();
    const posted = await h.fake.waitForCall(isFollowup(click.token), "the shared page");
    expect(String(embedsOf(posted)[0]?.["title"])).toContain(`(page 2 of ${pageCount})`);
    expect(buttonsOf(posted).map((b) => b.label)).toEqual(["◀ Previous", "Next ▶"]);
    // Anyone turns the public pages, every field still reachable.
    const publicId = messageIdOf(posted);
    const seen = new Set<string>();
    let call = posted;
    for (let page = 3; page <= pageCount; page++) {
      const more = buttonsOf(call).find((b) => b.label.startsWith("Next"))!;
      call = await h.fake.click(publicId, more.custom_id, { user: BOB }).callback();
      expect(bodyOf(call)["type"]).toBe(7);
      expect(String(embedsOf(call)[0]?.["title"])).toContain(`(page ${page} of ${pageCount})`);
      // Field names show escaped (knob\_00): untrusted text stays inert.
      const shown = JSON.stringify(embedsOf(call)).replaceAll("\\", "");
      for (const m of shown.matchAll(/knob_\d\d/g)) seen.add(m[0]);
    }
    expect(seen.size).toBeGreaterThan(0);
    expect([...seen].every((n) => bigFieldNames().includes(n))).toBe(true);
    expect(Number(h.fake.message(publicId)?.["flags"] ?? 0) & 64).toBe(0);
  });
});

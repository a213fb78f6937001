// Paging through real discord.js: a 99-field /rl config (answered privately) is reachable whole through Next/Previous (type 7 updates), across a restart.
import { describe, expect, it } from "vitest";
import { validateMessageBody } from "../fakes/discord-validate.ts";
import { bigFieldNames } from "../helpers/big-environment.ts";
import { bodyOf, buttonsOf, embedsOf, harnessPerTest, messageIdOf, onBigEnvironment } from "./harness.ts";

const start = harnessPerTest();

/** The field names shown, read through Discord's markdown escapes (knob\_07). */
const namesIn = (embeds: unknown): string[] =>
  [...JSON.stringify(embeds).matchAll(/knob\\*_\d\d/g)].map((m) => m[0].replace(/\\/g, ""));

describe("Discord paging", () => {
  it("shows every field of a 99-field config across pages, and the buttons keep working after a restart", async () => {
    const h = await start(onBigEnvironment());
    await h.services.env.selectEnvironment(h.channel, "big");
    const first = await h.fake.slash("config").callback();
    // A personal read: shown to the asker alone (flags 64), and its pages turn on that private message.
    expect((bodyOf(first)["data"] as { flags?: number }).flags).toBe(64);
    const messageId = messageIdOf(first);
    const title = String(embedsOf(first)[0]?.["title"]);
    const pageCount = Number(/\(page 1 of (\d+)\)/.exec(title)?.[1]);
    expect(pageCount).toBeGreaterThan(1);
    const seen = new Set(namesIn(embedsOf(first)));
    const titles = new Set(embedsOf(first).map((e) => String(e["title"])));
    let call = first;
    for (let page = 2; page <= pageCount; page++) {
      expect(validateMessageBody(bodyOf(call)["data"])).toEqual([]);
      // Halfway, the bot restarts: the pages are in SQLite, not in its memory.
      if (page === 3) await h.restart();
      const next = buttonsOf(call).find((b) => b.label.startsWith("Next"));
      if (!next) throw new Error(`page ${page - 1} has no Next button`);
      expect(next.custom_id.length).toBeLessThanOrEqual(100);
      call = await h.fake.click(messageId, next.custom_id).callback();
      expect(bodyOf(call)["type"]).toBe(7);
      expect(String(embedsOf(call)[0]?.["title"])).toContain(`(page ${page} of ${pageCount})`);
      for (const name of namesIn(embedsOf(call))) seen.add(name);
      for (const e of embedsOf(call)) titles.add(String(e["title"]));
    }
    expect([...seen].sort()).toEqual(bigFieldNames());
    for (const heading of ["big's own fields", "Locked (infrastructure)", "Trainer (locked)"])
      expect(titles).toContain(heading);
    expect(buttonsOf(call).map((b) => b.label)).toEqual(["◀ Previous", "Post to channel"]);
    expect(Number(h.fake.message(messageId)?.["flags"]) & 64).toBe(64);
    const back = await h.fake.click(messageId, buttonsOf(call)[0]!.custom_id).callback();
    expect(String(embedsOf(back)[0]?.["title"])).toContain(`(page ${pageCount - 1} of ${pageCount})`);
  });

  it("says a page button brought from another channel's message turns only there, not that its pages expired", async () => {
    const h = await start();
    const elsewhere = { ...h.channel, channel: "1100000000000000299" };
    const id = h.services.pages.save(elsewhere, [{ title: "Page one" }, { title: "Page two" }]);
    // Any of the bot's messages here carries the foreign button (as a forwarded or copied one would).
    const message = messageIdOf(await h.fake.slash("plot").callback());
    const call = await h.fake.click(message, `rl:p:1:${id}`).callback();
    expect(bodyOf(call)["type"]).toBe(4);
    const said = JSON.stringify(embedsOf(call));
    expect(said).toContain("belong to a message in another channel and turn only there");
    expect(said).not.toContain("no longer kept");
    expect(said).not.toContain("Page two");
  });
});

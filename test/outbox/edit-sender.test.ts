// The edit queue of posted messages: the latest content only, one edit a message per gap, a 429 waited out, and what
// is owed still owed after a restart on the same database.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createMessageEditsRepo } from "../../db/message-edits.ts";
import { openDatabase } from "../../db/open-database.ts";
import { createLogger } from "../../src/log.ts";
import { deliveryError } from "../../src/outbox/delivery-failure.ts";
import { createEditSender, type Editor } from "../../src/outbox/edit-sender.ts";
import type { Reply } from "../../src/reply.ts";
import { tempDir } from "../helpers/test-services.ts";

const ref = { channel: { platform: "slack", workspace: "T1", channel: "C1" }, id: "1700000000.000100" };
const log = createLogger(
  "error",
  (s) => s,
  () => undefined,
);

function setUp(file: string, clock: { t: number }, editor: Editor) {
  const db = openDatabase(file);
  const edits = createMessageEditsRepo(db);
  const sender = createEditSender({ edits, log, now: () => clock.t, gapMs: 3000 });
  sender.register("slack", editor);
  return { db, edits, sender };
}

describe("the edit queue", () => {
  it("sends the latest content at most once a gap, waits out a 429, and keeps what is owed across a restart", async () => {
    const file = path.join(tempDir("rl-edits-"), "bot.db");
    const clock = { t: 1_000_000 };
    const sent: Array<{ at: number; title?: string }> = [];
    let refuse = 0;
    const editor: Editor = async (_ref, reply: Reply) => {
      if (refuse-- > 0) throw deliveryError("rate limited", { retryAfterMs: 5000 });
      sent.push({ at: clock.t, title: reply.title });
    };
    const first = setUp(file, clock, editor);
    expect(first.edits.put("sweep:s1", ref, { title: "v1" }, clock.t, 3000)).toBe(true);
    expect(first.edits.put("sweep:s1", ref, { title: "v1" }, clock.t, 3000)).toBe(false);
    await first.sender.drain();
    // The message was just posted: its first edit waits the gap.
    expect(sent).toEqual([]);
    first.edits.put("sweep:s1", ref, { title: "v2" }, clock.t, 3000);
    clock.t += 3000;
    await first.sender.drain();
    expect(sent).toEqual([{ at: 1_003_000, title: "v2" }]);
    // Two changes within the gap: one edit, the later content.
    first.edits.put("sweep:s1", ref, { title: "v3" }, clock.t, 3000);
    first.edits.put("sweep:s1", ref, { title: "v4" }, clock.t, 3000);
    clock.t += 1000;
    await first.sender.drain();
    expect(sent).toHaveLength(1);
    clock.t += 2000;
    refuse = 1;
    await first.sender.drain();
    expect(sent).toHaveLength(1);
    // The bot stops with v4 owed; a new one on the same file sends it after the platform's Retry-After.
    await first.sender.stop();
    first.db.close();
    const second = setUp(file, clock, editor);
    clock.t += 4000;
    await second.sender.drain();
    expect(sent).toHaveLength(1);
    clock.t += 1000;
    await second.sender.drain();
    expect(sent).toEqual([
      { at: 1_003_000, title: "v2" },
      { at: 1_011_000, title: "v4" },
    ]);
    expect(second.edits.pending()).toBe(0);
    second.db.close();
  });
});

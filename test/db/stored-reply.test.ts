// Replies stored as JSON (reply pages, the outbox) read back in the current shape, rows of the previous version included.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../db/open-database.ts";
import { createOutboxRepo } from "../../db/outbox.ts";
import { createReplyPagesRepo } from "../../db/reply-pages.ts";
import { readStoredReply } from "../../db/stored-reply.ts";
import { tempDir } from "../helpers/test-services.ts";

const slack = { platform: "slack", workspace: "T1", channel: "C1" };

const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function open(): Db {
  const db = openDatabase(path.join(tempDir("rl-stored-reply-"), "rl-chatops.db"));
  opened.push(db);
  return db;
}

describe("stored replies", () => {
  it("reads a reply of the previous shape (delivery at the top level) with its delivery in `delivery`", () => {
    expect(readStoredReply({ title: "Run r1 started", ephemeral: true, anchorRunId: "r1", runId: "r1" })).toEqual({
      title: "Run r1 started",
      delivery: { ephemeral: true, anchorRunId: "r1", runId: "r1" },
    });
    expect(readStoredReply({ text: "private", ephemeral: false })).toEqual({
      text: "private",
      delivery: { ephemeral: false },
    });
  });

  it("reads a reply of the current shape as it is", () => {
    const reply = {
      title: "Results",
      chart: { title: "reward", points: [] },
      delivery: { runId: "r2" },
      data: { a: 1 },
    };
    expect(readStoredReply(JSON.parse(JSON.stringify(reply)))).toEqual(reply);
    expect(readStoredReply({ title: "plain" })).toEqual({ title: "plain" });
  });

  it("reads a page row written by the previous version with each page's delivery in `delivery`", () => {
    const db = open();
    const old = [
      { title: "Config", text: "a", ephemeral: true, anchorRunId: "r3", runId: "r3" },
      { title: "Config", text: "b", ephemeral: true, runId: "r3" },
    ];
    db.prepare(
      "INSERT INTO reply_pages (id, platform, workspace, channel, pages_json, footer, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).run("A".repeat(22), "slack", "T1", "C1", JSON.stringify(old), null, Date.now());
    expect(createReplyPagesRepo(db).get("A".repeat(22))?.pages).toEqual([
      { title: "Config", text: "a", delivery: { ephemeral: true, anchorRunId: "r3", runId: "r3" } },
      { title: "Config", text: "b", delivery: { ephemeral: true, runId: "r3" } },
    ]);
  });

  it("keeps the pages it saves as they were", () => {
    const pages = createReplyPagesRepo(open());
    const saved = [{ title: "p1", delivery: { ephemeral: true, anchorRunId: "r4" } }, { title: "p2" }];
    expect(pages.get(pages.save(slack, saved))?.pages).toEqual(saved);
  });

  it("reads an outbox row written by the previous version with its delivery in `delivery`", () => {
    const db = open();
    db.prepare(
      `INSERT INTO outbox (dedupe_key, platform, workspace, channel, thread, kind, run_id, reply_json, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      "comparison:s1",
      "slack",
      "T1",
      "C1",
      null,
      "notice",
      "r5",
      JSON.stringify({ title: "Compared", runId: "r5" }),
      0,
      0,
    );
    const outbox = createOutboxRepo(db);
    outbox.enqueue(
      {
        dedupeKey: "notice:r6",
        target: { channel: slack },
        kind: "notice",
        reply: { title: "New", delivery: { anchorRunId: "r6" } },
      },
      0,
    );
    expect(outbox.due(1, 10).map((m) => m.reply)).toEqual([
      { title: "Compared", delivery: { runId: "r5" } },
      { title: "New", delivery: { anchorRunId: "r6" } },
    ]);
  });
});

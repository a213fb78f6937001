// What a digest pass asks the database for every channel and run: answered through indexes and in one query, so a pass
// over a thousand runs does not grow with the months of posts kept in the outbox.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDigestStateRepo } from "../../db/digest-state.ts";
import { openDatabase, type Db } from "../../db/open-database.ts";
import { createOutboxRepo } from "../../db/outbox.ts";
import { createRunsRepo } from "../../db/runs.ts";

const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function open(): Db {
  const db = openDatabase(path.join(mkdtempSync(path.join(tmpdir(), "rl-db-")), "state.db"));
  opened.push(db);
  return db;
}

/** The statements a repo prepares, in order. */
function preparedBy(db: Db, create: (db: Db) => unknown): string[] {
  const sources: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    sources.push(source);
    return prepare(source);
  }) as Db["prepare"];
  try {
    create(db);
  } finally {
    db.prepare = prepare;
  }
  return sources;
}

const channel = { platform: "slack", workspace: "T1", channel: "C1" };

describe("a digest pass's queries", () => {
  it("count and date a channel's posts of a kind through an index, not by reading every post", () => {
    const db = open();
    const perChannel = preparedBy(db, createOutboxRepo).filter((sql) =>
      /FROM outbox WHERE platform = \? AND workspace = \? AND channel = \? AND kind = \?/.test(sql),
    );
    expect(perChannel).toHaveLength(2);
    for (const sql of perChannel) {
      const plan = db
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all("slack", "T1", "C1", "digest", 0);
      expect(plan.map((row) => row.detail).join("; ")).toMatch(/USING (COVERING )?INDEX outbox_by_channel_kind/);
    }
    const outbox = createOutboxRepo(db);
    const post = (key: string, kind: "digest" | "alert", at: number, to = channel) =>
      outbox.enqueue({ dedupeKey: key, target: { channel: to }, kind, reply: { text: key } }, at);
    post("a", "digest", 1_000);
    post("b", "digest", 2_000);
    post("c", "alert", 3_000);
    post("d", "digest", 4_000, { ...channel, channel: "C2" });
    expect(outbox.countSince(channel, "digest", 1_500)).toBe(1);
    expect(outbox.countSince(channel, "digest", 0)).toBe(2);
    expect(outbox.oldestSince(channel, "digest", 0)).toBe(1_000);
    expect(outbox.oldestSince(channel, "alert", 3_001)).toBeUndefined();
  });

  it("read many runs' digest states in one query, the same as one by one, a run never seen with a fresh state", () => {
    const db = open();
    const runs = createRunsRepo(db);
    for (const id of ["r1", "r2", "r3"])
      runs.insert({ id, channel, environment: "arithmetic", config: {}, status: "running", createdBy: "U1" });
    const states = createDigestStateRepo(db);
    states.update("r1", { muted: true, lastDigestAt: 5, bestReward: 0.75 });
    states.update("r3", { lastStep: 12, stallAlerted: true });
    const many = states.getMany(["r1", "r2", "r3"]);
    expect([...many.keys()]).toEqual(["r1", "r2", "r3"]);
    for (const id of ["r1", "r2", "r3"]) expect(many.get(id)).toEqual(states.get(id));
    expect(many.get("r1")).toMatchObject({ muted: true, lastDigestAt: 5, bestReward: 0.75 });
    expect(many.get("r2")).toEqual({ runId: "r2", muted: false, stallAlerted: false, regressionAlerted: false });
    expect(states.getMany([]).size).toBe(0);
  });
});

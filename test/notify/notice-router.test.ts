// A pass over many runs reads each channel's /rl notify settings once; a router outside a pass reads them each time.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CHANNEL_WIDE, createNotifySettingsRepo, type NotifySettingsRepo } from "../../db/notify-settings.ts";
import { openDatabase, type Db } from "../../db/open-database.ts";
import type { RunRow } from "../../db/runs.ts";
import { createNoticeRouter } from "../../src/notify/notice-router.ts";

const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

const channel = { platform: "slack", workspace: "T1", channel: "C1" };
const run = (id: string, createdBy: string): RunRow => ({
  id,
  channel,
  thread: `t-${id}`,
  environment: "arithmetic",
  config: {},
  status: "running",
  createdBy,
  createdAt: 0,
  updatedAt: 0,
  backend: "local",
  stack: "atropos-tinker",
  jobRequeues: 0,
  attempt: 0,
  trainedMs: 0,
});

function countingSettings(): { repo: NotifySettingsRepo; reads: () => number } {
  const db = openDatabase(path.join(mkdtempSync(path.join(tmpdir(), "rl-db-")), "state.db"));
  opened.push(db);
  const repo = createNotifySettingsRepo(db);
  let reads = 0;
  return {
    repo: {
      ...repo,
      get: (c, userId) => {
        reads++;
        return repo.get(c, userId);
      },
    },
    reads: () => reads,
  };
}

describe("the notice router", () => {
  it("in one pass reads each person's and channel's settings once, and keeps them until the pass ends", () => {
    const { repo, reads } = countingSettings();
    repo.set(channel, CHANNEL_WIDE, { routes: { alerts: { to: "channel" } } }, "U1", 1);
    const router = createNoticeRouter(repo);
    const pass = router.forOnePass();
    const runs = Array.from({ length: 50 }, (_, i) => run(`r${i}`, i % 2 ? "U1" : "U2"));
    for (const r of runs) {
      expect(pass.route("alerts", r)).toEqual({ target: { channel }, route: "channel" });
      expect(pass.channelSettings(channel).routes.alerts).toEqual({ to: "channel" });
    }
    // U1's, U2's and the channel's: three reads for a hundred questions.
    expect(reads()).toBe(3);

    repo.set(channel, CHANNEL_WIDE, { routes: { alerts: { to: "off" } } }, "U1", 2);
    expect(pass.route("alerts", runs[0]!)).toEqual({ target: { channel }, route: "channel" });
    // Outside the pass, and in the next, the change holds at once.
    expect(router.route("alerts", runs[0]!)).toBeUndefined();
    expect(router.forOnePass().route("alerts", runs[0]!)).toBeUndefined();
  });
});

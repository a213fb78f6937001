// The digest's "checkpoint saved" line: once for the checkpoints saved since the last digest, never one post each.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDigestStateRepo } from "../../db/digest-state.ts";
import { loadConfig } from "../../src/config.ts";
import type { Reply } from "../../src/reply.ts";
import { createServices, type Services } from "../../src/services.ts";
import { tempDir } from "../helpers/test-services.ts";

const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

const MIN = 60_000;
let clock = 0;
const CHANNEL = { platform: "slack", workspace: "T1", channel: "C1" };

function cookbookServices(): Services {
  const s = createServices(loadConfig({ RL_LOG_LEVEL: "silent", RL_STACK: "tinker-cookbook" }, tempDir()), {
    now: () => clock,
  });
  opened.push(s);
  return s;
}

function addRecipeRun(s: Services, id: string): string {
  s.runs.insert({
    id,
    channel: CHANNEL,
    environment: "math_rl.train",
    config: {},
    status: "running",
    createdBy: "U1",
    stack: "tinker-cookbook",
  });
  s.runs.update(id, { startedAt: clock - 10 * MIN, totalSteps: 30 });
  const dir = path.join(s.config.dataDir, "runs", id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "metrics.jsonl"), "");
  return dir;
}

function save(dir: string, ...batches: number[]): void {
  for (const b of batches) {
    const name = String(b).padStart(6, "0");
    appendFileSync(
      path.join(dir, "checkpoints.jsonl"),
      `${JSON.stringify({ name, batch: b, state_path: `tinker://r:train:0/weights/${name}`, sampler_path: `tinker://r:train:0/sampler_weights/${name}` })}\n`,
    );
  }
}

const lastDigest = (s: Services): Reply => {
  const row = s.db.prepare("SELECT reply_json FROM outbox WHERE kind = 'digest' ORDER BY id DESC LIMIT 1").get() as
    { reply_json: string } | undefined;
  if (!row) throw new Error("no digest queued");
  return JSON.parse(row.reply_json) as Reply;
};
const checkpointFields = (reply: Reply) => (reply.fields ?? []).filter((f) => f.label.startsWith("Checkpoint saved"));

describe("checkpoint lines in digests", () => {
  it("says a new checkpoint once, then nothing until more are saved, then how many with the latest", async () => {
    clock = 50_000_000;
    const s = cookbookServices();
    const dir = addRecipeRun(s, "cccc0001");

    await s.digests.runNow({ force: true });
    expect(checkpointFields(lastDigest(s))).toEqual([]);

    save(dir, 5);
    clock += MIN;
    await s.digests.runNow({ force: true });
    expect(checkpointFields(lastDigest(s))).toEqual([
      {
        label: "Checkpoint saved, run cccc0001",
        value: "000005 at step 5: tinker://r:train:0/weights/000005 · /rl checkpoints cccc0001",
      },
    ]);

    clock += MIN;
    await s.digests.runNow({ force: true });
    expect(checkpointFields(lastDigest(s))).toEqual([]);

    save(dir, 10, 15);
    clock += MIN;
    await s.digests.runNow({ force: true });
    expect(checkpointFields(lastDigest(s)).map((f) => f.value)).toEqual([
      "2 new, latest 000015 at step 15: tinker://r:train:0/weights/000015 · /rl checkpoints cccc0001",
    ]);
    expect(createDigestStateRepo(s.db).get("cccc0001").lastCheckpointCount).toBe(3);
  });

  it("keeps the count of a digest that was not due, and of a pass that only looked for alerts", async () => {
    clock = 60_000_000;
    const s = cookbookServices();
    const dir = addRecipeRun(s, "cccc0002");
    await s.digests.runNow({ force: true });
    save(dir, 5);
    clock += MIN;
    await s.digests.runNow({ alertsOnly: true });
    await s.digests.runNow();
    expect(createDigestStateRepo(s.db).get("cccc0002").lastCheckpointCount).toBe(0);
    await s.digests.runNow({ force: true });
    expect(checkpointFields(lastDigest(s))).toHaveLength(1);
  });
});

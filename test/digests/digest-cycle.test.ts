import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import { renderText } from "../../adapters/render-text.ts";
import { loadConfig } from "../../src/config.ts";
import type { Reply } from "../../src/reply.ts";
import { createServices, type Services } from "../../src/services.ts";
import { startFakeWandb, type FakeWandb } from "../fakes/wandb-server.ts";
import { tempDir } from "../helpers/test-services.ts";

const opened: Services[] = [];
const fakes: FakeWandb[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const f of fakes.splice(0)) await f.close();
});

const KEY = "wandb-test-key-0123456789";
let clock = 0;
const MIN = 60_000;

function services(env: Record<string, string> = {}): Services {
  const s = createServices(loadConfig({ RL_LOG_LEVEL: "silent", ...env }, tempDir()), { now: () => clock });
  opened.push(s);
  return s;
}

const channel = (id: string): ChannelKey => ({ platform: "slack", workspace: "T1", channel: id });

function addRun(s: Services, id: string, ch: ChannelKey, steps: Array<[number, number]>, total = 100): void {
  s.runs.insert({ id, channel: ch, environment: "arithmetic", config: {}, status: "running", createdBy: "U1" });
  s.runs.update(id, {
    startedAt: clock - 60 * MIN,
    totalSteps: total,
    wandbProject: "proj",
    wandbGroup: `arithmetic-${id}`,
    wandbRunName: `arithmetic-${id}`,
  });
  writeTrainerLog(s, id, steps, total);
}

function writeTrainerLog(s: Services, id: string, steps: Array<[number, number]>, total: number): void {
  const file = s.manager.logPath(id, "trainer");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    steps
      .map(
        ([step, reward]) =>
          `Step ${step}/${total}\nLoss: 0.5\nReward/mean: ${reward}\nStep ${step} complete - Loss: 0.5\n`,
      )
      .join(""),
  );
}

const digests = (s: Services) =>
  (
    s.db.prepare("SELECT * FROM outbox WHERE kind = 'digest' ORDER BY id").all() as Array<{
      channel: string;
      reply_json: string;
      thread: string | null;
    }>
  ).map((r) => ({
    channel: r.channel,
    thread: r.thread,
    reply: JSON.parse(r.reply_json) as Reply,
  }));

describe("digest cycle", () => {
  it("coalesces a channel's runs into one message with progress, rate, ETA and reward change", async () => {
    clock = 10_000_000;
    const s = services();
    addRun(s, "aaaa0001", channel("C1"), [
      [0, 0.2],
      [9, 0.4],
    ]);
    addRun(s, "aaaa0002", channel("C1"), [
      [0, 0.1],
      [19, 0.3],
    ]);
    addRun(s, "aaaa0003", channel("C2"), [[4, 0.5]]);
    const result = await s.digests.runNow();
    expect(result).toMatchObject({ runs: 3, messages: 2 });
    const posts = digests(s);
    expect(posts.map((p) => p.channel).sort()).toEqual(["C1", "C2"]);
    const c1 = posts.find((p) => p.channel === "C1")!.reply;
    expect(c1.fields).toHaveLength(2);
    expect(c1.fields![0]!.value).toContain("step 10/100");
    expect(c1.fields![0]!.value).toContain("10 steps/h");
    expect(c1.fields![0]!.value).toContain("ETA 540 min");

    clock += 31 * MIN;
    writeTrainerLog(
      s,
      "aaaa0003",
      [
        [4, 0.5],
        [8, 0.75],
      ],
      100,
    );
    await s.digests.runNow({ channel: channel("C2") });
    const c2 = digests(s)
      .filter((p) => p.channel === "C2")
      .at(-1)!.reply;
    expect(c2.fields![0]!.value).toContain("reward 0.75 (+0.25)");
  });

  it("gives a sweep's runs one digest in the sweep's thread, and a channel with other runs one at the top", async () => {
    clock = 15_000_000;
    const s = services();
    const c1 = channel("C1");
    s.sweeps.insert({
      id: "s1234567",
      channel: c1,
      thread: "1700.000100",
      environment: "arithmetic",
      grid: [{ field: "temperature", values: [0.2, 1.8] }],
      createdBy: "U1",
    });
    for (const id of ["dddd0001", "dddd0002"]) {
      s.runs.insert({
        id,
        channel: c1,
        thread: "1700.000100",
        environment: "arithmetic",
        config: {},
        status: "running",
        createdBy: "U1",
        sweepId: "s1234567",
      });
      s.runs.update(id, { startedAt: clock - 60 * MIN, totalSteps: 100 });
      writeTrainerLog(s, id, [[3, 0.2]], 100);
    }
    expect(await s.digests.runNow()).toMatchObject({ runs: 2, messages: 1 });
    expect(digests(s)).toEqual([
      expect.objectContaining({
        channel: "C1",
        thread: "1700.000100",
        reply: expect.objectContaining({ title: "📈 Digest: sweep s1234567, 2 runs" }),
      }),
    ]);

    clock += 31 * MIN;
    addRun(s, "dddd0003", c1, [[5, 0.3]]);
    expect(await s.digests.runNow()).toMatchObject({ runs: 3, messages: 1 });
    expect(digests(s).at(-1)).toEqual(
      expect.objectContaining({
        channel: "C1",
        thread: null,
        reply: expect.objectContaining({ title: "📈 Digest: 3 runs" }),
      }),
    );
  });

  it("posts at most one digest per run per interval, and the limit survives a restart", async () => {
    clock = 20_000_000;
    const cwd = tempDir();
    const open = () => {
      const s = createServices(loadConfig({ RL_LOG_LEVEL: "silent" }, cwd), { now: () => clock });
      opened.push(s);
      return s;
    };
    const s = open();
    addRun(s, "bbbb0001", channel("C1"), [[3, 0.2]]);
    expect((await s.digests.runNow()).messages).toBe(1);
    clock += 10 * MIN;
    expect((await s.digests.runNow()).messages).toBe(0);
    await s.close();
    const restarted = open();
    expect((await restarted.digests.runNow()).messages).toBe(0);
    clock += 21 * MIN;
    expect((await restarted.digests.runNow()).messages).toBe(1);
  });

  it("caps posts per channel per hour, and mutes a run's digests", async () => {
    clock = 30_000_000;
    const s = services({ RL_CHANNEL_POSTS_PER_HOUR: "2", RL_DIGEST_INTERVAL_MINUTES: "1" });
    addRun(s, "cccc0001", channel("C1"), [[1, 0.1]]);
    expect((await s.digests.runNow()).messages).toBe(1);
    clock += 2 * MIN;
    expect((await s.digests.runNow()).messages).toBe(1);
    clock += 2 * MIN;
    expect(await s.digests.runNow()).toMatchObject({ messages: 0, skippedChannels: 1 });
    clock += 2 * MIN;
    await s.digests.runNow();
    // One line, not one per skipped pass, says the digests are paused and when they resume.
    const paused = s.db.prepare("SELECT reply_json FROM outbox WHERE kind = 'alert'").all() as Array<{
      reply_json: string;
    }>;
    expect(paused).toHaveLength(1);
    expect(JSON.parse(paused[0]!.reply_json)).toMatchObject({
      title: "📈 Digests paused in this channel",
      text: expect.stringMatching(/had its 2 digests for the hour.*after \d\d:\d\d UTC/),
    });
    clock += 61 * MIN;
    s.digests.mute("cccc0001", true);
    expect((await s.digests.runNow()).messages).toBe(0);
    s.digests.mute("cccc0001", false);
    expect((await s.digests.runNow()).messages).toBe(1);
  });

  it("caps digests by the channel they go to: two channels' routed to one share its cap, and the pause is said there", async () => {
    clock = 31_000_000;
    const s = services({ RL_CHANNEL_POSTS_PER_HOUR: "2", RL_DIGEST_INTERVAL_MINUTES: "1", RL_OPERATORS: "slack:U1" });
    for (const id of ["C1", "C2"]) {
      const ctx = { channel: channel(id), user: { id: "U1", name: "alice" }, via: "slash" as const, services: s };
      const set = await dispatch({ text: "/rl notify digests <#C9|training>" }, ctx);
      expect(set.ok, JSON.stringify(set.reply)).toBe(true);
    }
    addRun(s, "cccc0011", channel("C1"), [[1, 0.1]]);
    addRun(s, "cccc0012", channel("C2"), [[1, 0.1]]);
    expect((await s.digests.runNow()).messages).toBe(2);
    clock += 2 * MIN;
    expect(await s.digests.runNow()).toMatchObject({ messages: 0, skippedChannels: 2 });
    expect(digests(s).map((d) => d.channel)).toEqual(["C9", "C9"]);
    const paused = s.db.prepare("SELECT channel, reply_json FROM outbox WHERE kind = 'alert'").all() as Array<{
      channel: string;
      reply_json: string;
    }>;
    expect(paused.map((p) => p.channel)).toEqual(["C9"]);
    expect(JSON.parse(paused[0]!.reply_json)).toMatchObject({ title: "📈 Digests paused in this channel" });
  });

  it("alerts once on a stall and once on a reward regression, and re-arms when the run recovers", async () => {
    clock = 40_000_000;
    const s = services({ RL_STALL_MINUTES: "10", RL_REGRESSION_FRACTION: "0.5" });
    addRun(s, "dddd0001", channel("C1"), [[5, 0.8]]);
    const alerts = () =>
      s.db
        .prepare("SELECT reply_json FROM outbox WHERE kind = 'alert' ORDER BY id")
        .all()
        .map((r) => (JSON.parse((r as { reply_json: string }).reply_json) as Reply).title);
    await s.digests.runNow({ alertsOnly: true });
    clock += 11 * MIN;
    await s.digests.runNow({ alertsOnly: true });
    clock += 5 * MIN;
    await s.digests.runNow({ alertsOnly: true });
    expect(alerts()).toEqual(["⚠️ Stalled: run dddd0001 (arithmetic)"]);

    writeTrainerLog(
      s,
      "dddd0001",
      [
        [5, 0.8],
        [6, 0.3],
      ],
      100,
    );
    await s.digests.runNow({ alertsOnly: true });
    await s.digests.runNow({ alertsOnly: true });
    // Moving again after a stall is news too.
    expect(alerts().slice(1)).toEqual([
      "▶️ Moving again: run dddd0001 (arithmetic)",
      "⚠️ Reward regression: run dddd0001 (arithmetic)",
    ]);

    writeTrainerLog(
      s,
      "dddd0001",
      [
        [5, 0.8],
        [6, 0.3],
        [7, 0.7],
      ],
      100,
    );
    await s.digests.runNow({ alertsOnly: true });
    clock += 11 * MIN;
    await s.digests.runNow({ alertsOnly: true });
    expect(alerts()).toHaveLength(4);
    expect(alerts()[3]).toContain("Stalled");
  });

  it("shows a stall in /rl status, and no longer once the run moves again", async () => {
    clock = 42_000_000;
    const s = services({ RL_STALL_MINUTES: "10" });
    addRun(s, "dddd0003", channel("C1"), [[14, 0.5]]);
    await s.digests.runNow({ alertsOnly: true });
    clock += 23 * MIN;
    await s.digests.runNow({ alertsOnly: true });
    const ctx = { channel: channel("C1"), user: { id: "U1", name: "alice" }, via: "slash" as const, services: s };
    const stalled = await dispatch({ text: "/rl status dddd0003" }, ctx);
    expect(stalled.reply.fields).toContainEqual({ label: "Progress", value: "no progress for 23 min, last step 15" });
    writeTrainerLog(
      s,
      "dddd0003",
      [
        [14, 0.5],
        [15, 0.6],
      ],
      100,
    );
    await s.digests.runNow({ alertsOnly: true });
    const moving = await dispatch({ text: "/rl status dddd0003" }, ctx);
    expect(moving.reply.fields?.some((f) => f.label === "Progress")).toBe(false);
  });

  it("judges a regression against the best reward in the whole trainer log, not only the values seen at passes", async () => {
    clock = 45_000_000;
    const s = services({ RL_REGRESSION_FRACTION: "0.5" });
    addRun(s, "dddd0002", channel("C1"), [[1, 0.4]]);
    await s.digests.runNow({ alertsOnly: true });
    // Between two passes the reward peaked at 0.9 and fell to 0.3: below half the best, though above half of 0.4.
    writeTrainerLog(
      s,
      "dddd0002",
      [
        [1, 0.4],
        [2, 0.9],
        [3, 0.3],
      ],
      100,
    );
    await s.digests.runNow({ alertsOnly: true });
    const texts = (
      s.db.prepare("SELECT reply_json FROM outbox WHERE kind = 'alert'").all() as Array<{ reply_json: string }>
    ).map((r) => (JSON.parse(r.reply_json) as Reply).text);
    expect(texts).toEqual([expect.stringContaining("below its best of 0.900")]);
  });

  it("a mute given while a pass over hundreds of runs is under way holds after the pass", async () => {
    clock = 50_000_000;
    const s = services({ RL_CHANNEL_POSTS_PER_HOUR: "1000" });
    for (let i = 0; i < 400; i++)
      addRun(s, `eeee${String(i).padStart(4, "0")}`, channel(`C${i % 40}`), [[i % 50, 0.5]]);
    const pass = s.digests.runNow();
    await new Promise((r) => setTimeout(r, 20));
    s.digests.mute("eeee0000", true);
    const result = await pass;
    expect(result.runs).toBeGreaterThan(0);
    expect(s.digests.isMuted("eeee0000")).toBe(true);
  });

  it("asks WandB once per project for all runs and links each run", async () => {
    clock = 50_000_000;
    const wandb = await startFakeWandb({ apiKey: KEY });
    fakes.push(wandb);
    const s = services({ WANDB_API_KEY: KEY, WANDB_BASE_URL: wandb.url, WANDB_ENTITY: "team" });
    for (let i = 0; i < 30; i++) {
      const id = `eeee${String(i).padStart(4, "0")}`;
      addRun(s, id, channel(`C${i % 3}`), [[2, 0.5]]);
      wandb.addRun({
        project: "proj",
        entity: "team",
        displayName: `arithmetic-${id}-trainer-x1`,
        name: `w${id}`,
        // As the trainer logs it: in the run's group (wandb_group, which the bot sets).
        group: `arithmetic-${id}`,
        summary: { _step: 2, "reward/mean": 0.5 },
      });
    }
    const before = wandb.requests.length;
    await s.digests.runNow();
    const runsQueries = wandb.requests.slice(before).filter((r) => r.operationName === "Runs");
    expect(runsQueries.length).toBe(1);
    const post = digests(s)[0]!.reply;
    expect(post.links?.[0]?.url).toMatch(/\/team\/proj\/runs\/weeee/);
  });

  it("names who started each run and where its logs are, and links the WandB group page when WandB refuses", async () => {
    clock = 60_000_000;
    const wandb = await startFakeWandb({ apiKey: KEY });
    fakes.push(wandb);
    const s = services({
      WANDB_API_KEY: KEY,
      WANDB_BASE_URL: wandb.url,
      WANDB_APP_URL: "https://wandb.example",
      WANDB_ENTITY: "team",
    });
    addRun(s, "ffff0001", channel("C1"), [[2, 0.5]]);
    wandb.setFault("401");
    await s.digests.runNow();
    expect(wandb.requests.length).toBeGreaterThan(0);
    const post = digests(s)[0]!.reply;
    expect(post.links).toEqual([
      { label: "WandB ffff0001", url: "https://wandb.example/team/proj/groups/arithmetic-ffff0001" },
    ]);
    expect(renderText(post)).toContain("started by U1 · logs: /rl logs ffff0001");
  });
});

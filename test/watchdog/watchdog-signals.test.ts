// The watchdog's rules on logged progress, and its passes: each signal fires once per episode, is re-armed once it no
// longer holds, and a channel tunes or switches each off (/rl notify watchdog).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { loadConfig } from "../../src/config.ts";
import { createServices, type Services } from "../../src/services.ts";
import {
  findCollapse,
  findEntropyCollapse,
  findGroupCollapse,
  findLengthDrift,
  findPlateau,
  findStall,
  medianStepMs,
  type Point,
} from "../../src/watchdog/signals.ts";
import type { RULES } from "../../src/watchdog/watchdog-rules.ts";
import { signalValues } from "../../src/watchdog/watchdog-rules.ts";
import { tempDir } from "../helpers/test-services.ts";

const points = (values: number[]): Point[] => values.map((value, step) => ({ step, value }));
const defaults = (signal: keyof typeof RULES) => signalValues({ routes: {} }, signal)!;

describe("the watchdog's rules", () => {
  it("reward collapse: the recent mean under half the best mean, not one lucky step", () => {
    // A healthy run with one lucky early step and noise: no collapse.
    const healthy = [0.9, 0.2, 0.25, 0.3, 0.28, 0.35, 0.4, 0.38, 0.45, 0.5, 0.48, 0.55];
    expect(findCollapse(points(healthy), defaults("collapse"))).toBeUndefined();
    const collapsing = [0.2, 0.4, 0.6, 0.8, 0.9, 0.9, 0.92, 0.9, 0.3, 0.1, 0.05, 0.0, 0.0];
    const found = findCollapse(points(collapsing), defaults("collapse"));
    expect(found?.message).toBe(
      "The mean reward of the last 5 steps is 0.09, under 50% of the run's best, 0.884 (the 5 steps to step 7).",
    );
    // Healthy up to the last step at or above half the best before the recent five: step 7 (0.9).
    expect(found?.healthyUpTo).toBe(7);
    expect(findCollapse(points(collapsing), { fraction: 0.05, steps: 5 })).toBeUndefined();
  });

  it("plateau, entropy collapse and length drift", () => {
    const flat = [0.1, 0.5, 0.6, 0.6, 0.59, 0.6, 0.6];
    expect(findPlateau(points(flat), { window: 4, gain: 0.01 })?.healthyUpTo).toBe(2);
    expect(findPlateau(points([...flat, 0.7]), { window: 4, gain: 0.01 })).toBeUndefined();
    expect(findPlateau(points(flat), defaults("plateau"))).toBeUndefined();

    const entropy = [2, 2.1, 1.9, 2, 2, 1.5, 1, 0.3, 0.2, 0.1, 0.1, 0.1];
    expect(findEntropyCollapse(points(entropy), defaults("entropy"))?.message).toMatch(
      /^The policy's entropy fell to 0\.16 \(mean of the last 5 steps\), under 20% of its early 2:/,
    );
    expect(findEntropyCollapse(points(entropy.slice(0, 8)), defaults("entropy"))).toBeUndefined();

    const lengths = [100, 110, 90, 100, 100, 150, 200, 300, 320, 350];
    expect(findLengthDrift(points(lengths), defaults("length"))?.message).toMatch(/^Completions grew longer: 264/);
    expect(findLengthDrift(points(lengths.map((l) => 10_000 / l)), defaults("length"))?.message).toMatch(
      /^Completions grew shorter/,
    );
    expect(findLengthDrift(points(lengths.slice(0, 7)), defaults("length"))).toBeUndefined();
  });

  it("stall: measured against the median step time, never under its least wait", () => {
    const seen: Array<[number, number]> = [
      [1, 0],
      [3, 20_000],
      [4, 30_000],
      [6, 50_000],
    ];
    expect(medianStepMs(seen)).toBe(10_000);
    expect(medianStepMs(seen.slice(0, 2))).toBeUndefined();
    // Five median steps (50 s) are shorter than the 3 minutes' least wait.
    expect(findStall(seen, 50_000 + 170_000, defaults("stall"))).toBeUndefined();
    expect(findStall(seen, 50_000 + 180_000, defaults("stall"))?.message).toBe(
      "No new step for 3 minutes (still at step 6); steps took 10 s each (median), so the trainer may be hung.",
    );
    expect(findStall(seen, 50_000 + 50_000, { times: 5, minutes: 0 })?.healthyUpTo).toBe(6);
  });

  it("group collapse: every group's rollouts scored alike", () => {
    const sample = (group: number, groupScores: number[]) => ({
      group,
      index: 0,
      score: groupScores[0]!,
      groupScores,
      prompt: "p",
      completion: "c",
    });
    expect(findGroupCollapse(4, [sample(0, [0, 0, 0]), sample(1, [1, 1, 1])])?.message).toBe(
      "Every rollout of each of the 2 groups of step 4 scored the same as the rest of its group (0, 1): no advantage, nothing to learn from.",
    );
    expect(findGroupCollapse(4, [sample(0, [0, 0, 0]), sample(1, [1, 0, 1])])).toBeUndefined();
    expect(findGroupCollapse(4, [sample(0, [1])])).toBeUndefined();
  });
});

let clock = 50_000_000;
const CONSOLE = { platform: "console", workspace: "local", channel: "console" };
const s: Services = createServices(loadConfig({ RL_LOG_LEVEL: "silent" }, tempDir()), { now: () => clock });
afterAll(() => s.close());

/** The demo trainer's log lines for these rewards, a checkpoint saved after every second step. */
function writeRewards(id: string, rewards: number[]): void {
  const file = s.manager.logPath(id, "trainer");
  mkdirSync(path.dirname(file), { recursive: true });
  const step = (r: number, i: number) =>
    `Step ${i}/100\nReward/mean: ${r}\n${i % 2 ? `Sampling client updated: tinker://demo/x/sampler_weights/step_${i + 1}\n` : ""}Step ${i} complete - Loss: 0.5\n`;
  writeFileSync(file, rewards.map(step).join(""));
}

async function type(text: string): Promise<{ title?: string; text?: string; error?: unknown }> {
  const ctx: CommandContext = { channel: CONSOLE, user: { id: "local", name: "local" }, via: "console", services: s };
  return (await dispatch({ text }, ctx)).reply;
}

const watchdogAlerts = (runId: string) =>
  (
    s.db
      .prepare(
        "SELECT dedupe_key AS k, reply_json AS r FROM outbox WHERE run_id = ? AND dedupe_key LIKE 'alert:watchdog:%' ORDER BY id",
      )
      .all(runId) as Array<{ k: string; r: string }>
  ).map((row) => ({
    key: row.k,
    reply: JSON.parse(row.r) as { title: string; text: string; buttons: Array<{ command: string }> },
  }));

function startRun(id: string): void {
  s.runs.insert({ id, channel: CONSOLE, environment: "arithmetic", config: {}, status: "running", createdBy: "local" });
}

async function pass(rewards: number[], id: string): Promise<void> {
  writeRewards(id, rewards);
  clock += 60_000;
  await s.digests.runNow({ alertsOnly: true });
}

describe("the watchdog's passes", () => {
  it("a collapse alerts once per episode, with its evidence and proposal, and again only after a recovery", async () => {
    startRun("w-col");
    const rising = [0.2, 0.4, 0.6, 0.8, 0.9, 0.9, 0.92, 0.9];
    await pass(rising, "w-col");
    expect(watchdogAlerts("w-col")).toEqual([]);
    const collapsed = [...rising, 0.3, 0.1, 0.05, 0.0, 0.0];
    await pass(collapsed, "w-col");
    await pass([...collapsed, 0.0], "w-col");
    await pass([...collapsed, 0.0, 0.1], "w-col");
    const [alert, ...more] = watchdogAlerts("w-col");
    expect(more).toEqual([]);
    expect(alert!.key).toBe("alert:watchdog:collapse:w-col:13");
    expect(alert!.reply.title).toBe("🚨 Reward collapse: run w-col (arithmetic)");
    // The last healthy step is 7; the checkpoint saved after step 5 (step_6) is the newest before it.
    expect(JSON.stringify(alert!.reply)).toContain("step_6 at step 6: tinker://demo/x/sampler_weights/step_6");
    // atropos-tinker cannot fork: Stop and Ignore only.
    expect(alert!.reply.buttons.map((b) => b.command)).toEqual([
      "/rl stop w-col",
      "/rl notify watchdog collapse ignore=w-col",
    ]);

    // Recovered, then collapsed again: a new episode, a second alert.
    const recovered = [...collapsed, 0.9, 0.9, 0.9, 0.9, 0.9];
    await pass(recovered, "w-col");
    await pass([...recovered, 0, 0, 0, 0, 0], "w-col");
    expect(watchdogAlerts("w-col").map((a) => a.key)).toEqual([
      "alert:watchdog:collapse:w-col:13",
      "alert:watchdog:collapse:w-col:23",
    ]);
  });

  it("a channel tunes or switches a signal off; Ignore stops one signal for one run", async () => {
    expect((await type("/rl notify watchdog collapse fraction=0.2,steps=3")).text).toBe(
      "Reward collapse alerts when the mean reward of the last `steps` steps is under `fraction` of the run's best (fraction 0.2, steps 3).",
    );
    expect((await type("/rl notify watchdog collapse fraction=2")).error).toMatchObject({
      message: 'collapse fraction must be a number from 0.01 to 0.99 (of the run\'s best); got "2".',
    });
    expect((await type("/rl notify watchdog")).text).toContain("once per episode");
    startRun("w-tuned");
    // Under half the best, but not under a fifth of it: nothing with fraction 0.2.
    await pass([0.8, 0.9, 0.9, 0.9, 0.4, 0.4, 0.4], "w-tuned");
    expect(watchdogAlerts("w-tuned")).toEqual([]);
    await pass([0.8, 0.9, 0.9, 0.9, 0.4, 0.4, 0.4, 0.1, 0.1, 0.1], "w-tuned");
    expect(watchdogAlerts("w-tuned")).toHaveLength(1);

    startRun("w-ignored");
    expect((await type("/rl notify watchdog collapse ignore=w-ignored")).title).toBe(
      "Ignored: reward collapse on run w-ignored",
    );
    await pass([0.8, 0.9, 0.9, 0.9, 0.1, 0.1, 0.1], "w-ignored");
    expect(watchdogAlerts("w-ignored")).toEqual([]);

    await type("/rl notify watchdog collapse off");
    startRun("w-off");
    await pass([0.8, 0.9, 0.9, 0.9, 0.1, 0.1, 0.1], "w-off");
    expect(watchdogAlerts("w-off")).toEqual([]);
    await type("/rl notify watchdog collapse reset");
  });

  it("a stall alerts once, after five median step times", async () => {
    startRun("w-stall");
    const rewards: number[] = [];
    for (let i = 0; i < 4; i++) {
      rewards.push(0.5, 0.5);
      await pass(rewards, "w-stall");
    }
    // Two steps a minute, then none: the pass 3 minutes on is the first at 5 x 30 s and 3 minutes.
    await pass(rewards, "w-stall");
    await pass(rewards, "w-stall");
    expect(watchdogAlerts("w-stall")).toEqual([]);
    await pass(rewards, "w-stall");
    await pass(rewards, "w-stall");
    expect(watchdogAlerts("w-stall").map((a) => a.reply.title)).toEqual(["🚨 Stall: run w-stall (arithmetic)"]);
  });
});

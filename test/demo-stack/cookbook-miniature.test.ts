// End-to-end tests of the tinker-cookbook miniature: the math_rl recipe as a real python3 process (learning, checkpoints, kill and resume, fork, chz and log-dir failures).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exitOf, mean, usePoolPerTest, waitFor, type DemoProcess } from "./demo-stack-harness.ts";

const COOKBOOK_DIR = path.resolve(import.meta.dirname, "../../examples/tinker-cookbook");
const STEPS = 20;

interface CheckpointLine {
  name: string;
  batch: number;
  state_path: string;
  sampler_path: string;
}

const { pool, dir, logs } = usePoolPerTest();

/** The recipe with site-packages off (-S): proves no PyYAML, numpy or chz package is needed. */
function startRecipe(name: string, args: string[]): DemoProcess {
  return pool().start(name, ["-S", "-m", "tinker_cookbook.recipes.math_rl.train", ...args], {
    cwd: COOKBOOK_DIR,
    env: { PYTHONPATH: COOKBOOK_DIR, TINKER_DEMO_STORE: undefined, WANDB_API_KEY: undefined },
  });
}

function readJsonl<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

const metricsOf = (log: string) => readJsonl<Record<string, number>>(path.join(log, "metrics.jsonl"));
const checkpointsOf = (log: string) => readJsonl<CheckpointLine>(path.join(log, "checkpoints.jsonl"));
const rewards = (log: string) => metricsOf(log).map((m) => m["env/all/reward/total"] ?? Number.NaN);
/** xs[i], failing the test when it is missing (negative i counts from the end). */
function nth<T>(xs: T[], i: number): T {
  const x = xs.at(i);
  if (x === undefined) throw new Error(`no element ${i} in ${JSON.stringify(xs).slice(0, 200)}`);
  return x;
}
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

async function runToEnd(name: string, args: string[]): Promise<DemoProcess> {
  const proc = startRecipe(name, args);
  expect(await exitOf(proc, logs), logs()).toEqual({ code: 0, signal: null });
  return proc;
}

describe("tinker-cookbook miniature", () => {
  it("learns: metrics.jsonl has steps 0..N-1 with the real keys and the reward rises", async () => {
    const log = path.join(dir(), "run");
    const proc = await runToEnd("train", [
      `log_path=${log}`,
      "demo_step_seconds=0.01",
      `demo_n_batches=${STEPS}`,
      "demo_learning_rate=0.05",
      "save_every=5",
      "wandb_project=demo",
    ]);
    const metrics = metricsOf(log);
    expect(metrics.map((m) => m.step)).toEqual(range(0, STEPS));
    for (const key of ["progress/batch", "progress/done_frac", "optim/lr", "optim/entropy", "env/all/reward/total"])
      expect(nth(metrics, 0), key).toHaveProperty([key]);
    expect(nth(metrics, STEPS - 1)["progress/done_frac"]).toBe(1);
    const r = rewards(log);
    const quarter = STEPS / 4;
    expect(mean(r.slice(-quarter))).toBeGreaterThan(mean(r.slice(0, quarter)) + 0.2);
    expect(proc.stdout()).toMatch(/WANDB_API_KEY environment variable not set\. Skipping W&B logging/);
    const config = JSON.parse(readFileSync(path.join(log, "config.json"), "utf8")) as Record<string, unknown>;
    expect(config).toMatchObject({ log_path: log, save_every: 5, recipe_name: "recipe_math_rl" });
  });

  it("writes checkpoints.jsonl records in the real shape, weights behind each path", async () => {
    const log = path.join(dir(), "run");
    await runToEnd("train", [`log_path=${log}`, "demo_step_seconds=0", "max_steps=12", "save_every=5"]);
    const records = checkpointsOf(log);
    expect(records.map((c) => [c.name, c.batch])).toEqual([
      ["000005", 5],
      ["000010", 10],
      ["final", 12],
    ]);
    for (const c of records) {
      expect(Object.keys(c)).toEqual(["name", "batch", "state_path", "sampler_path"]);
      expect(c.state_path).toMatch(new RegExp(`^tinker://[0-9a-f-]+:train:0/weights/${c.name}$`));
      expect(c.sampler_path).toMatch(new RegExp(`^tinker://[0-9a-f-]+:train:0/sampler_weights/${c.name}$`));
      for (const tinkerPath of [c.state_path, c.sampler_path]) {
        const file = tinkerPath.replace(/^tinker:\/\/([^:]+):train:0\//, "$1/") + ".json";
        expect(existsSync(path.join(dir(), ".tinker-store", file)), file).toBe(true);
      }
    }
  });

  it("killed with SIGKILL after a step and restarted with resume, ends at N with metrics from the last checkpoint on", async () => {
    const log = path.join(dir(), "run");
    const args = [`log_path=${log}`, `demo_n_batches=${STEPS}`, "save_every=4"];
    const first = startRecipe("first", [...args, "demo_step_seconds=0.2"]);
    await waitFor(() => metricsOf(log).length >= 10, "step 9 in metrics.jsonl", logs);
    process.kill(-(first.child.pid as number), "SIGKILL");
    expect(await exitOf(first, logs)).toEqual({ code: null, signal: "SIGKILL" });
    const stoppedAfter = metricsOf(log).length;
    const last = nth(checkpointsOf(log), -1);
    expect(last.batch).toBeLessThanOrEqual(stoppedAfter);
    expect(last.name).not.toBe("final");

    const second = await runToEnd("resume", [...args, "demo_step_seconds=0.01", "behavior_if_log_dir_exists=resume"]);
    expect(second.stderr()).toContain(`Resumed training from ${last.state_path}`);
    const steps = metricsOf(log).map((m) => m.step);
    expect(steps.slice(stoppedAfter)).toEqual(range(last.batch, STEPS));
    expect(checkpointsOf(log).at(-1)).toMatchObject({ name: "final", batch: STEPS });
  });

  it("a fork from a mid checkpoint starts from those weights", async () => {
    const parent = path.join(dir(), "parent");
    await runToEnd("parent", [`log_path=${parent}`, "demo_step_seconds=0", "max_steps=30", "save_every=15"]);
    const mid = nth(checkpointsOf(parent), 0);
    expect(mid.batch).toBe(15);
    const fork = path.join(dir(), "fork");
    const fresh = path.join(dir(), "fresh");
    const forked = await runToEnd("fork", [
      `log_path=${fork}`,
      "demo_step_seconds=0",
      "max_steps=1",
      "seed=1",
      `load_checkpoint_path=${mid.state_path}`,
    ]);
    await runToEnd("fresh", [`log_path=${fresh}`, "demo_step_seconds=0", "max_steps=1", "seed=1"]);
    expect(forked.stderr()).toContain(`Loaded weights from ${mid.state_path}`);
    const parentReward = nth(rewards(parent), 15);
    const forkReward = nth(rewards(fork), 0);
    const freshReward = nth(rewards(fresh), 0);
    expect(Math.abs(forkReward - parentReward)).toBeLessThan(Math.abs(freshReward - parentReward));
    expect(forkReward).toBeGreaterThan(freshReward);
  });

  it("refuses an unknown key and a bad value the way chz does, exit 1", async () => {
    const unknown = startRecipe("unknown", ["bogus=1"]);
    expect(await exitOf(unknown, logs)).toEqual({ code: 1, signal: null });
    expect(unknown.stderr()).toBe(
      "Error:\nExtraneous argument 'bogus' to Blueprint for CLIConfig (from command line)\n" +
        "Append --help to your command to see valid arguments\n",
    );
    const near = startRecipe("near", ["learning_rat=1"]);
    expect(await exitOf(near, logs)).toEqual({ code: 1, signal: null });
    expect(near.stderr()).toContain("Did you mean 'learning_rate'?");
    const bad = startRecipe("bad", ["lora_rank=abc"]);
    expect(await exitOf(bad, logs)).toEqual({ code: 1, signal: null });
    expect(bad.stderr()).toContain("Could not interpret argument 'abc' provided for param 'lora_rank'...");
  });

  it("fails on an existing log dir with raise (ConfigurationError) and with ask when stdin is closed (EOFError)", async () => {
    const log = path.join(dir(), "run");
    await runToEnd("train", [`log_path=${log}`, "demo_step_seconds=0", "max_steps=1"]);
    const raise = startRecipe("raise", [`log_path=${log}`, "behavior_if_log_dir_exists=raise"]);
    expect(await exitOf(raise, logs)).toEqual({ code: 1, signal: null });
    expect(raise.stderr()).toContain(
      `tinker_cookbook.exceptions.ConfigurationError: Log directory ${log} already exists. Will not delete it.`,
    );
    const ask = startRecipe("ask", [`log_path=${log}`]);
    expect(await exitOf(ask, logs)).toEqual({ code: 1, signal: null });
    expect(ask.stdout()).toContain(
      `Log directory ${log} already exists. What do you want to do? [delete, resume, exit]: `,
    );
    expect(ask.stderr()).toMatch(/EOFError: EOF when reading a line\n$/);
  });

  it("injects faults: error_in_step raises with a traceback (exit 1), crash_in_step dies with 137", async () => {
    const err = startRecipe("error", [
      `log_path=${path.join(dir(), "e")}`,
      "demo_step_seconds=0",
      "demo_fault=error_in_step:3",
    ]);
    expect(await exitOf(err, logs)).toEqual({ code: 1, signal: null });
    expect(err.stderr()).toMatch(/Traceback[\s\S]*RuntimeError: demo_fault: injected error in step 3\n$/);
    expect(metricsOf(path.join(dir(), "e")).map((m) => m.step)).toEqual([0, 1, 2]);
    const crash = startRecipe("crash", [
      `log_path=${path.join(dir(), "c")}`,
      "demo_step_seconds=0",
      "demo_fault=crash_in_step:2",
    ]);
    expect(await exitOf(crash, logs)).toEqual({ code: 137, signal: null });
    expect(crash.stderr()).not.toContain("Traceback");
  });
});

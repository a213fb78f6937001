// The TRL GRPO miniature as real python3 processes: checkpoint-N/trainer_state.json in the real shape, resume with each
// step once, TRL's parser failures, and its recipes read alike by its YAML stand-in and the real PyYAML.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { waitFor } from "../../demo-stack/demo-stack-harness.ts";
import {
  EXAMPLES_DIR,
  expectExit,
  mean,
  oracleMissing,
  pythonJson,
  range,
  readJson,
  signalAndWait,
  useMiniature,
} from "./miniature-kit.ts";

const TRL_DIR = path.join(EXAMPLES_DIR, "trl-grpo");
const RECIPE = path.join(TRL_DIR, "recipes/toy_arithmetic.yaml");
const TRAIN = path.join(TRL_DIR, "train_grpo.py");

// transformers' TrainerState fields (src/transformers/trainer_callback.py), which save_to_json writes with sort_keys.
const TRAINER_STATE_KEYS = [
  "best_global_step",
  "best_metric",
  "best_model_checkpoint",
  "epoch",
  "eval_steps",
  "global_step",
  "is_hyper_param_search",
  "is_local_process_zero",
  "is_world_process_zero",
  "log_history",
  "logging_steps",
  "max_steps",
  "num_input_tokens_seen",
  "num_train_epochs",
  "save_steps",
  "stateful_callbacks",
  "total_flos",
  "train_batch_size",
  "trial_name",
  "trial_params",
];

interface TrainerState {
  global_step: number;
  max_steps: number;
  log_history: Record<string, number>[];
}

const mini = useMiniature("trl-grpo");
const stateOf = (out: string, step: number) =>
  readJson<TrainerState>(path.join(out, `checkpoint-${step}`, "trainer_state.json"));
const checkpointSteps = (out: string) =>
  existsSync(out)
    ? readdirSync(out)
        .filter((name) => /^checkpoint-\d+$/.test(name))
        .map((name) => Number(name.slice("checkpoint-".length)))
        .sort((a, b) => a - b)
    : [];

describe("TRL GRPO miniature", () => {
  it("learns, and writes checkpoint-N/trainer_state.json in transformers' shape with one log per step", async () => {
    const out = path.join(mini.dir(), "out");
    const proc = await mini.run("train", [TRAIN, "--config", RECIPE, "--output_dir", out]);
    expectExit(proc, 0, mini.logs);
    // save_steps 10 with save_total_limit 3: checkpoint-10 was rotated out.
    expect(checkpointSteps(out)).toEqual([20, 30, 40]);
    const raw = stateOf(out, 40) as unknown as Record<string, unknown>;
    expect(Object.keys(raw)).toEqual(TRAINER_STATE_KEYS);
    const state = stateOf(out, 40);
    expect(state.global_step).toBe(40);
    expect(state.log_history.map((h) => h.step)).toEqual(range(1, 41));
    for (const key of [
      "loss",
      "grad_norm",
      "learning_rate",
      "reward",
      "reward_std",
      "rewards/accuracy_reward/mean",
      "epoch",
    ])
      expect(state.log_history[0], key).toHaveProperty([key]);
    const rewards = state.log_history.map((h) => h.reward ?? Number.NaN);
    expect(mean(rewards.slice(-10))).toBeGreaterThan(mean(rewards.slice(0, 10)) + 0.4);
    expect(proc.stdout()).toMatch(/^\{'loss': [^\n]*'epoch': /m);
    expect(existsSync(path.join(out, "toy_state.json"))).toBe(true);
  });

  it("stopped with SIGTERM (no handler, as in TRL) and run again into the same output_dir, logs every step once", async () => {
    const out = path.join(mini.dir(), "out");
    const args = [TRAIN, "--config", RECIPE, "--output_dir", out, "--save_steps", "5"];
    const first = mini.start("first", args, { RL_DEMO_STEP_SECONDS: "0.1" });
    await waitFor(() => checkpointSteps(out).includes(15), "checkpoint-15", mini.logs);
    expect(await signalAndWait(first, "SIGTERM", mini.logs)).toEqual({ code: null, signal: "SIGTERM" });
    const last = checkpointSteps(out).at(-1) ?? 0;
    expect(last).toBeLessThan(40);

    const second = await mini.run("resume", args);
    expectExit(second, 0, mini.logs);
    expect(second.stderr()).toContain(
      `Checkpoint detected, resuming training at last_checkpoint='${out}/checkpoint-${last}'`,
    );
    expect(second.stderr()).toContain(`Continuing training from global step ${last}`);
    expect(stateOf(out, 40).log_history.map((h) => h.step)).toEqual(range(1, 41));
  });

  it("forks from a checkpoint path into another output_dir, continuing its step count", async () => {
    const parent = path.join(mini.dir(), "parent");
    expectExit(
      await mini.run("parent", [TRAIN, "--config", RECIPE, "--output_dir", parent, "--max_steps", "20"]),
      0,
      mini.logs,
    );
    const fork = path.join(mini.dir(), "fork");
    const forked = await mini.run("fork", [
      TRAIN,
      "--config",
      RECIPE,
      "--output_dir",
      fork,
      "--max_steps",
      "30",
      "--resume_from_checkpoint",
      path.join(parent, "checkpoint-10"),
    ]);
    expectExit(forked, 0, mini.logs);
    expect(stateOf(fork, 30).log_history.map((h) => h.step)).toEqual(range(1, 31));
    expect(checkpointSteps(fork)).toEqual([20, 30]);
  });

  it("TRL's own script ignores --resume_from_checkpoint and starts at step 1", async () => {
    const out = path.join(mini.dir(), "out");
    const args = ["-m", "trl.scripts.grpo", "--config", RECIPE, "--output_dir", out, "--max_steps", "10"];
    expectExit(await mini.run("first", args), 0, mini.logs);
    const again = await mini.run("again", [...args, "--resume_from_checkpoint", path.join(out, "checkpoint-10")]);
    expectExit(again, 0, mini.logs);
    expect(again.stderr()).not.toContain("Continuing training");
    expect(again.stdout().match(/^\{'loss'/gm)).toHaveLength(10);
  });

  it("fails a bad override the way TRL's parser does", async () => {
    const unknown = await mini.run("unknown", [TRAIN, "--config", RECIPE, "--bogus", "1"]);
    expectExit(unknown, 1, mini.logs);
    expect(unknown.stderr()).toContain(
      "ValueError: Some specified arguments are not used by the HfArgumentParser: ['--bogus', '1']",
    );
    const bad = await mini.run("bad", [TRAIN, "--config", RECIPE, "--num_generations", "abc"]);
    expectExit(bad, 2, mini.logs);
    expect(bad.stderr()).toContain("error: argument --num_generations/--num-generations: invalid int value: 'abc'");
    const indivisible = await mini.run("indivisible", [TRAIN, "--config", RECIPE, "--num_generations", "3"]);
    expectExit(indivisible, 1, mini.logs);
    expect(indivisible.stderr()).toContain(
      "ValueError: generation_batch_size (16) must be divisible by num_generations (3).",
    );
    const recipe = path.join(mini.dir(), "typo.yaml");
    writeFileSync(recipe, readFileSync(RECIPE, "utf8") + "num_generation: 4\n");
    const typo = await mini.run("typo", [TRAIN, "--config", recipe]);
    expectExit(typo, 1, mini.logs);
    expect(typo.stderr()).toContain("ValueError: Unknown arguments from config file: ['--num_generation', '4'].");
    // TRL's own script drops the unknown recipe key and trains.
    const dropped = await mini.run("dropped", [
      "-m",
      "trl.scripts.grpo",
      "--config",
      recipe,
      "--output_dir",
      path.join(mini.dir(), "d"),
      "--max_steps",
      "2",
    ]);
    expectExit(dropped, 0, mini.logs);
    const noCheckpoint = await mini.run("none", [
      TRAIN,
      "--config",
      RECIPE,
      "--output_dir",
      path.join(mini.dir(), "x"),
      "--resume_from_checkpoint",
      "True",
    ]);
    expectExit(noCheckpoint, 1, mini.logs);
    expect(noCheckpoint.stderr()).toContain("ValueError: Can't find a valid checkpoint at True");
  });

  it("collapses its reward with RL_DEMO_FAULT=collapse", async () => {
    const out = path.join(mini.dir(), "out");
    expectExit(
      await mini.run("collapse", [TRAIN, "--config", RECIPE, "--output_dir", out], {
        RL_DEMO_FAULT: "collapse",
      }),
      0,
      mini.logs,
    );
    const rewards = stateOf(out, 40).log_history.map((h) => h.reward ?? Number.NaN);
    expect(mean(rewards.slice(15, 20))).toBeGreaterThan(0.6);
    expect(mean(rewards.slice(-5))).toBeLessThan(0.3);
  });

  // PyYAML is in the machine's python3 (REFERENCE.md section 12); the TRL miniature's own `yaml` stands in for it.
  const noPyYaml = oracleMissing("python3", "import yaml");
  it.skipIf(noPyYaml !== undefined)(
    `reads its recipes as the real PyYAML does${noPyYaml ? ` (${noPyYaml})` : ""}`,
    () => {
      const recipes = readdirSync(path.join(TRL_DIR, "recipes")).map((f) => path.join(TRL_DIR, "recipes", f));
      const script =
        "import json, sys, yaml\nprint(json.dumps([yaml.safe_load(open(p)) for p in json.load(sys.stdin)]))";
      const real = pythonJson("python3", script, JSON.stringify(recipes));
      const ours = pythonJson(
        "python3",
        script.replace("import json, sys, yaml", "import json, sys\nsys.path.insert(0, '.')\nimport yaml"),
        JSON.stringify(recipes),
        TRL_DIR,
      );
      expect(ours).toEqual(real);
    },
  );
});

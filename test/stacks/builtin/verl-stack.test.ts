// RL_STACK=verl on its miniature (examples/verl), through the bot's core: the config's fields as Hydra composes them
// (checked against OmegaConf reading verl's own flattened config), a run with its changes as Hydra overrides (the
// composed config the trainer recorded read back by OmegaConf), progress from the file logger's JSON lines, whole
// checkpoints, samples, a stop and a resume in the same run (each attempt its own log, every step once), and a fork.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../../commands/dispatch.ts";
import { PACKAGE_ROOT } from "../../../src/config.ts";
import { confirmed } from "../../helpers/confirm.ts";
import { CONSOLE, closeDemoStacks, nextEvent, type DemoStack } from "../../helpers/demo-stack.ts";
import { consoleContext, runFile, runToEnd, startBuiltin, until } from "../../helpers/builtin-stack.ts";
import { oracleMissing, readJsonl } from "../miniatures/miniature-kit.ts";

const CONFIG_DIR = path.join(PACKAGE_ROOT, "examples", "verl", "verl", "trainer", "config");
// Debian's python3 carries python3-omegaconf (.ci/run installs it); the pyenv python3 does not.
const OMEGACONF_PYTHON = "/usr/bin/python3";
const noOmegaConf = oracleMissing(OMEGACONF_PYTHON, "import omegaconf");

// A small GRPO run of the toy task: what a person sets before /rl start (rollout.name is `???`, as in verl).
const GRPO: Array<[string, string]> = [
  ["actor_rollout_ref.rollout.name", "vllm"],
  ["algorithm.adv_estimator", "grpo"],
  ["data.train_batch_size", "16"],
  ["actor_rollout_ref.rollout.n", "4"],
  ["trainer.val_before_train", "false"],
];

interface LogLine {
  step: number;
  data: Record<string, number>;
}

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

async function verl(settings: Array<[string, string]>, stepSeconds = "0") {
  const stack = startBuiltin("verl", { RL_DEMO_STEP_SECONDS: stepSeconds });
  stacks.push(stack);
  const { services } = stack;
  await services.env.selectEnvironment(CONSOLE, "ppo_trainer");
  for (const [key, value] of [...GRPO, ...settings]) await services.env.editConfig(CONSOLE, key, value);
  return { services, ctx: consoleContext(stack) };
}

const trainSteps = (file: string) =>
  readJsonl<LogLine>(file)
    .filter((l) => "training/global_step" in l.data)
    .map((l) => l.step);

/** The leaves (a.b.c: [type, value]) of a config file as the real OmegaConf loads it (bench/omegaconf-flat.py). */
const omegaconfFlat = (file: string) =>
  JSON.parse(
    execFileSync(OMEGACONF_PYTHON, [path.join(PACKAGE_ROOT, "bench", "omegaconf-flat.py"), file], { encoding: "utf8" }),
  ) as Record<string, [string, unknown]>;
const valuesOf = (flat: Record<string, [string, unknown]>) =>
  Object.fromEntries(Object.entries(flat).map(([k, [, v]]) => [k, v]));

describe("RL_STACK=verl on its miniature", () => {
  it.skipIf(noOmegaConf !== undefined)(
    "lists the trainer config with every field Hydra composes, as OmegaConf reads verl's flattened config",
    async () => {
      const stack = startBuiltin("verl");
      stacks.push(stack);
      const catalog = await stack.services.catalog.list();
      expect(catalog.environments.map((e) => e.name)).toEqual(["ppo_trainer"]);
      const fields = catalog.environments[0]!.fields;
      // verl's CI writes _generated_ppo_trainer.yaml from Hydra's own composition (--cfg job).
      const real = omegaconfFlat(path.join(CONFIG_DIR, "_generated_ppo_trainer.yaml"));
      expect(fields.filter((f) => !(f.name in real)).map((f) => f.name)).toEqual(["hydra.run.dir"]);
      for (const field of fields.filter((f) => !f.locked))
        expect([field.name, field.type, field.defaultExpr ?? field.default]).toEqual([
          field.name,
          ...real[field.name]!,
        ]);
      expect(fields.filter((f) => !f.locked)).toHaveLength(Object.keys(real).length - 4);
    },
  );

  it("refuses a start or a sweep while a ??? field is unset, naming it and the /rl set to type", async () => {
    const stack = startBuiltin("verl");
    stacks.push(stack);
    const ctx = consoleContext(stack);
    await stack.services.env.selectEnvironment(CONSOLE, "ppo_trainer");
    const refusals = [];
    for (const text of ["/rl start", "/rl sweep actor_rollout_ref.actor.optim.lr=1e-6,2e-6"]) {
      const out = await dispatch({ text }, ctx);
      expect(out.needsConfirmation, text).toBeFalsy();
      expect(out.reply.error?.code, text).toBe("NOT_STARTABLE");
      refusals.push(out.reply.text);
    }
    for (const text of refusals) {
      expect(text).toContain("field actor_rollout_ref.rollout.name has no value (???");
      expect(text).toContain("Type /rl set actor_rollout_ref.rollout.name <value>, then start again.");
    }
    expect(stack.services.runs.listAll(10)).toEqual([]);
    // A sweep whose every combination sets it may start; so may a start once it is set.
    const sweep = await dispatch({ text: "/rl sweep actor_rollout_ref.rollout.name=vllm,sglang" }, ctx);
    expect(sweep.needsConfirmation, sweep.reply.text).toBe(true);
    await stack.services.env.editConfig(CONSOLE, "actor_rollout_ref.rollout.name", "vllm");
    const start = await dispatch({ text: "/rl start" }, ctx);
    expect(start.needsConfirmation, start.reply.text).toBe(true);
  });

  it("runs a config to its end: changes as Hydra overrides, progress, whole checkpoints and samples", async () => {
    const { services, ctx } = await verl([
      ["trainer.total_training_steps", "6"],
      ["trainer.save_freq", "2"],
      ["actor_rollout_ref.actor.optim.lr", "2e-6"],
    ]);
    const id = await runToEnd(ctx, "/rl start");
    const run = services.runs.get(id)!;
    expect(run).toMatchObject({ stack: "verl", status: "completed", totalSteps: 6 });

    const progress = await services.manager.stackOf(run).readProgress(run);
    expect(progress.rewardHistory.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(progress.loss).toEqual(expect.any(Number));
    // A global_step_N past latest_checkpointed_iteration.txt is one verl is still writing: never offered.
    mkdirSync(runFile(services, id, "checkpoints", "global_step_8", "actor"), { recursive: true });
    const checkpoints = await services.manager.checkpoints(run);
    expect(checkpoints.map((c) => c.name)).toEqual(["global_step_2", "global_step_4", "global_step_6"]);
    const samples = await dispatch({ text: `/rl samples ${id} --step 3 --best --n 2` }, ctx);
    expect(samples.reply.title).toContain("samples of step 3");
    expect(JSON.stringify(samples.reply)).toContain("What is");

    if (noOmegaConf) return;
    // What the trainer composed from the bot's argv, recorded by Hydra and read by the real OmegaConf.
    const composed = valuesOf(omegaconfFlat(runFile(services, id, "hydra", ".hydra", "config.yaml")));
    expect(composed).toMatchObject({
      "actor_rollout_ref.rollout.name": "vllm",
      "actor_rollout_ref.actor.optim.lr": 2e-6,
      "data.train_batch_size": 16,
      "trainer.val_before_train": false,
      "trainer.logger": ["console", "file"],
      "trainer.default_local_dir": runFile(services, id, "checkpoints"),
      "trainer.experiment_name": id,
    });
  });

  it("stops a run and resumes it as the same run: each attempt its own log, every step counted once", async () => {
    const { services, ctx } = await verl(
      [
        ["trainer.total_training_steps", "16"],
        ["trainer.save_freq", "3"],
      ],
      "0.1",
    );
    const { reply } = await confirmed(ctx, "/rl start");
    const id = (reply.data as { run_id: string }).run_id;
    const first = runFile(services, id, "metrics.0.jsonl");
    await until(() => trainSteps(first).includes(6));
    await confirmed(ctx, `/rl stop ${id}`);
    expect(services.runs.get(id)!.status).toBe("stopped");
    const saved = Number(
      readFileSync(runFile(services, id, "checkpoints", "latest_checkpointed_iteration.txt"), "utf8"),
    );

    const completed = nextEvent(services, "completed", id);
    const { prompt } = await confirmed(ctx, `/rl resume ${id}`);
    expect(prompt.title).toBe(`Resume run ${id} (ppo_trainer) from checkpoint global_step_${saved}?`);
    await completed;
    const second = runFile(services, id, "metrics.1.jsonl");
    expect(trainSteps(second)).toEqual(Array.from({ length: 16 - saved }, (_, i) => saved + 1 + i));
    // verl saves a step before it logs it: a stop in between leaves a step no file holds, never one counted twice.
    const logged = [...new Set([...trainSteps(first).filter((s) => s <= saved), ...trainSteps(second)])];
    const run = services.runs.get(id)!;
    expect(run).toMatchObject({ status: "completed", attempt: 1, resumedStep: saved });
    const progress = await services.manager.stackOf(run).readProgress(run);
    expect(progress.rewardHistory.map((p) => p.step)).toEqual(logged.sort((a, b) => a - b));
    expect(progress.step).toBe(16);
  });

  it("forks a new run from a checkpoint with a change: resume_mode resume_path from that global_step_N", async () => {
    const { services, ctx } = await verl([
      ["trainer.total_training_steps", "4"],
      ["trainer.save_freq", "2"],
    ]);
    const parent = await runToEnd(ctx, "/rl start");

    const child = await runToEnd(ctx, `/rl fork ${parent} global_step_2 trainer.total_training_steps=6`);
    expect(services.runs.get(child)).toMatchObject({ parentId: parent, stack: "verl", status: "completed" });
    expect(trainSteps(runFile(services, child, "metrics.0.jsonl"))).toEqual([3, 4, 5, 6]);
    const overrides = readFileSync(runFile(services, child, "hydra", ".hydra", "overrides.yaml"), "utf8");
    expect(overrides).toContain("trainer.resume_mode=resume_path");
    expect(overrides).toContain(
      `trainer.resume_from_path=${runFile(services, parent, "checkpoints", "global_step_2")}`,
    );
  });
});

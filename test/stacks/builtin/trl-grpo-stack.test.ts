// RL_STACK=trl-grpo on its miniature (examples/trl-grpo), through the bot's core: recipes with the fields of TRL's
// dataclasses (GRPOConfig over TrainingArguments, ModelConfig, the script's arguments) and the recipe's values, checked
// against Python's ast and PyYAML; a run whose progress comes from checkpoint-N/trainer_state.json's log_history,
// whole checkpoints, no samples (TRL writes them only as Parquet), a stop and a resume in the same run from the
// checkpoint the bot showed, and a fork.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { Checkpoint } from "../../../src/stacks/training-stack.ts";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../../commands/dispatch.ts";
import { compareTrl } from "../../../bench/trl-discovery-check.ts";
import { PACKAGE_ROOT } from "../../../src/config.ts";
import { confirmed } from "../../helpers/confirm.ts";
import { CONSOLE, closeDemoStacks, nextEvent, type DemoStack } from "../../helpers/demo-stack.ts";
import { consoleContext, runFile, runToEnd, startBuiltin, until } from "../../helpers/builtin-stack.ts";
import { oracleMissing } from "../miniatures/miniature-kit.ts";
import { existsSync } from "node:fs";

const noPyYaml = oracleMissing("python3", "import yaml");

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

async function trl(settings: Array<[string, string]>, stepSeconds = "0") {
  const stack = startBuiltin("trl-grpo", { RL_DEMO_STEP_SECONDS: stepSeconds });
  stacks.push(stack);
  const { services } = stack;
  await services.env.selectEnvironment(CONSOLE, "toy_arithmetic_small_groups");
  for (const [key, value] of settings) await services.env.editConfig(CONSOLE, key, value);
  return { services, ctx: consoleContext(stack) };
}

describe("RL_STACK=trl-grpo on its miniature", () => {
  it.skipIf(noPyYaml !== undefined)(
    "lists each recipe with TRL's dataclass fields and the recipe's values, as ast and PyYAML read them",
    async () => {
      const stack = startBuiltin("trl-grpo");
      stacks.push(stack);
      const catalog = await stack.services.catalog.list();
      expect(catalog.environments.map((e) => e.name).sort()).toEqual(["toy_arithmetic", "toy_arithmetic_small_groups"]);
      expect(catalog.warnings).toEqual([]);
      const result = await compareTrl(path.join(PACKAGE_ROOT, "examples", "trl-grpo"));
      expect(result.mismatches).toEqual([]);
      expect(result.right).toBeGreaterThan(100);
      const recipe = catalog.environments.find((e) => e.name === "toy_arithmetic")!;
      const field = (name: string) => recipe.fields.find((f) => f.name === name);
      // GRPOConfig's own, TrainingArguments' through _BaseConfig, ModelConfig's, and the recipe's values over them.
      expect(field("num_generations")).toMatchObject({ default: 8 });
      expect(field("learning_rate")).toMatchObject({ default: 1e-6, type: "float" });
      expect(field("model_name_or_path")).toMatchObject({ default: "toy/policy-0" });
      expect(field("output_dir")).toMatchObject({ locked: true });
    },
  );

  it("runs a recipe to its end: progress from trainer_state.json's log_history, whole checkpoints, no samples", async () => {
    const { services, ctx } = await trl([
      ["max_steps", "6"],
      ["save_steps", "2"],
    ]);
    const id = await runToEnd(ctx, "/rl start");
    const run = services.runs.get(id)!;
    expect(run).toMatchObject({ stack: "trl-grpo", status: "completed", totalSteps: 6 });
    const progress = await services.manager.stackOf(run).readProgress(run);
    expect(progress.rewardHistory.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
    // A checkpoint folder trainer_state.json is not yet in (a save cut short) is never offered.
    mkdirSync(runFile(services, id, "output", "checkpoint-8"));
    const checkpoints = await services.manager.checkpoints(run);
    expect(checkpoints.map((c) => c.name)).toEqual(["checkpoint-2", "checkpoint-4", "checkpoint-6"]);
    const samples = await dispatch({ text: `/rl samples ${id}` }, ctx);
    expect(JSON.stringify(samples.reply)).toContain("keeps no samples");
  });

  it("stops a run, refuses a damaged last checkpoint naming the last good one, then resumes it as the same run from the checkpoint the bot showed, every step once", async () => {
    const { services, ctx } = await trl(
      [
        ["max_steps", "16"],
        ["save_steps", "3"],
      ],
      "0.1",
    );
    const { reply } = await confirmed(ctx, "/rl start");
    const id = (reply.data as { run_id: string }).run_id;
    await until(() => existsSync(runFile(services, id, "output", "checkpoint-6", "trainer_state.json")));
    await confirmed(ctx, `/rl stop ${id}`);
    expect(services.runs.get(id)!.status).toBe("stopped");
    const [good, last] = (await services.manager.checkpoints(services.runs.get(id)!)).slice(-2) as [
      Checkpoint,
      Checkpoint,
    ];

    // Half written (the folder and its marker there, the JSON cut off): refused, naming the last good one.
    const marker = path.join(last.path, "trainer_state.json");
    const whole = readFileSync(marker);
    writeFileSync(marker, '{"global_step": 6, "log_hist');
    const refused = await dispatch({ text: `/rl resume ${id}` }, ctx);
    const message = refused.reply.error?.message ?? "";
    expect(message).toContain(`its last checkpoint ${last.name} (step ${last.step}) is damaged`);
    expect(message).toContain("trainer_state.json is not whole JSON");
    expect(message).toContain(`The last good one is ${good.name} (step ${good.step}): move ${last.path} aside`);
    expect(services.runs.get(id)!).toMatchObject({ status: "stopped", attempt: 0 });
    writeFileSync(marker, whole);

    const completed = nextEvent(services, "completed", id);
    const { prompt } = await confirmed(ctx, `/rl resume ${id}`);
    expect(prompt.title).toBe(`Resume run ${id} (toy_arithmetic_small_groups) from checkpoint ${last.name}?`);
    await completed;
    const run = services.runs.get(id)!;
    expect(run).toMatchObject({ status: "completed", attempt: 1, resumedStep: last.step });
    const progress = await services.manager.stackOf(run).readProgress(run);
    expect(progress.rewardHistory.map((p) => p.step)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  });

  it("forks a new run from a checkpoint with a change, continuing its step count", async () => {
    const { services, ctx } = await trl([
      ["max_steps", "4"],
      ["save_steps", "2"],
    ]);
    const parent = await runToEnd(ctx, "/rl start");
    const child = await runToEnd(ctx, `/rl fork ${parent} checkpoint-2 max_steps=6`);
    expect(services.runs.get(child)).toMatchObject({ parentId: parent, stack: "trl-grpo", status: "completed" });
    const run = services.runs.get(child)!;
    const progress = await services.manager.stackOf(run).readProgress(run);
    // The checkpoint's log history comes along: steps 1-2 from the parent, 3-6 trained by the fork.
    expect(progress.rewardHistory.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await services.manager.checkpoints(run)).map((c) => c.name)).toContain("checkpoint-6");
  });
});

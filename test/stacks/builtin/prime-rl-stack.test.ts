// RL_STACK=prime-rl on its miniature (examples/prime-rl), through the bot's core: configs named by their folder, their
// fields read from the pydantic classes with the TOML's values (checked against the real pydantic 2 and tomllib), a run
// with kebab-cased flags (checkpoints turned on by a bare --ckpt), progress from metrics.jsonl's two records per step,
// samples, a stop (prime-rl's SIGTERM handler exits 1) and a resume by --resume.step in the same run, and a fork by
// --resume.dir.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../../commands/dispatch.ts";
import { comparePrimeRl } from "../../../bench/prime-rl-discovery-check.ts";
import { PACKAGE_ROOT } from "../../../src/config.ts";
import { confirmed } from "../../helpers/confirm.ts";
import { CONSOLE, closeDemoStacks, nextEvent, type DemoStack } from "../../helpers/demo-stack.ts";
import { consoleContext, runFile, runToEnd, startBuiltin, until } from "../../helpers/builtin-stack.ts";
import { oracleMissing, readJsonl } from "../miniatures/miniature-kit.ts";
import path from "node:path";

const noPydantic = oracleMissing("python3", "import pydantic, tomllib");

interface Metric {
  step: number;
  [key: string]: number;
}

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

async function primeRl(settings: Array<[string, string]>, stepSeconds = "0") {
  const stack = startBuiltin("prime-rl", { RL_DEMO_STEP_SECONDS: stepSeconds });
  stacks.push(stack);
  const { services } = stack;
  await services.env.selectEnvironment(CONSOLE, "toy");
  for (const [key, value] of settings) await services.env.editConfig(CONSOLE, key, value);
  return { services, ctx: consoleContext(stack) };
}

/** The steps (0-based, as prime-rl numbers them) that have a reward record. */
const rewardSteps = (file: string) =>
  readJsonl<Metric>(file)
    .filter((m) => "train/agg/all/reward/mean" in m)
    .map((m) => m.step);

/** The resume section of the trainer's config as the run resolved it (configs/trainer.json, model_dump). */
const resumeOf = (services: DemoStack["services"], id: string) =>
  (JSON.parse(readFileSync(runFile(services, id, "configs", "trainer.json"), "utf8")) as { resume: unknown }).resume;

describe("RL_STACK=prime-rl on its miniature", () => {
  it.skipIf(noPydantic !== undefined)(
    "lists each configs/<name>/rl.toml by its folder, every field as the real pydantic reads RLConfig with its TOML",
    async () => {
      const stack = startBuiltin("prime-rl");
      stacks.push(stack);
      const catalog = await stack.services.catalog.list();
      expect(catalog.environments.map((e) => e.name).sort()).toEqual(["toy", "toy-big-groups"]);
      expect(catalog.warnings).toEqual([]);
      const result = await comparePrimeRl(path.join(PACKAGE_ROOT, "examples", "prime-rl"));
      expect(result.mismatches).toEqual([]);
      expect(result.right).toBeGreaterThan(150);
      const toy = catalog.environments.find((e) => e.name === "toy")!;
      const field = (name: string) => toy.fields.find((f) => f.name === name);
      expect(field("max_steps")).toMatchObject({ default: 40, type: "int | None" });
      expect(field("trainer.optim.lr")).toMatchObject({ default: 1e-6 });
      expect(field("orchestrator.group_size")).toMatchObject({ default: 8 });
      expect(field("run.name")).toMatchObject({ locked: true });
    },
  );

  it("runs a config to its end with kebab-cased flags: progress, checkpoints and samples", async () => {
    const { services, ctx } = await primeRl([
      ["max_steps", "6"],
      ["ckpt.interval", "2"],
      ["orchestrator.batch_size", "16"],
      ["orchestrator.group_size", "4"],
    ]);
    const id = await runToEnd(ctx, "/rl start");
    const run = services.runs.get(id)!;
    expect(run).toMatchObject({ stack: "prime-rl", status: "completed", totalSteps: 6 });

    const progress = await services.manager.stackOf(run).readProgress(run);
    expect(progress.rewardHistory.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(progress.loss).toEqual(expect.any(Number));
    const checkpoints = await services.manager.checkpoints(run);
    expect(checkpoints.map((c) => c.name)).toEqual(["step_2", "step_4", "step_6"]);
    const samples = await dispatch({ text: `/rl samples ${id} --step 3 --best --n 2` }, ctx);
    expect(samples.reply.title).toContain("samples of step 3");
    expect(JSON.stringify(samples.reply)).toContain("What is");
    // What the trainer resolved from the bot's flags, as it wrote it.
    const trainer = JSON.parse(readFileSync(runFile(services, id, "configs", "orchestrator.json"), "utf8")) as {
      batch_size: number;
      group_size: number;
    };
    expect(trainer).toMatchObject({ batch_size: 16, group_size: 4 });
  });

  it("stops a run (SIGTERM, exit 1) and resumes it as the same run with --resume.step, every step counted once", async () => {
    const { services, ctx } = await primeRl(
      [
        ["max_steps", "16"],
        ["ckpt.interval", "3"],
        ["orchestrator.batch_size", "16"],
        ["orchestrator.group_size", "4"],
      ],
      "0.1",
    );
    const { reply } = await confirmed(ctx, "/rl start");
    const id = (reply.data as { run_id: string }).run_id;
    await until(() => rewardSteps(runFile(services, id, "metrics.jsonl")).includes(7));
    await confirmed(ctx, `/rl stop ${id}`);
    expect(services.runs.get(id)!.status).toBe("stopped");
    const last = (await services.manager.checkpoints(services.runs.get(id)!)).at(-1)!;

    const completed = nextEvent(services, "completed", id);
    const { prompt } = await confirmed(ctx, `/rl resume ${id}`);
    expect(prompt.title).toBe(`Resume run ${id} (toy) from checkpoint ${last.name}?`);
    await completed;
    const run = services.runs.get(id)!;
    expect(run).toMatchObject({ status: "completed", attempt: 1, resumedStep: last.step });
    const progress = await services.manager.stackOf(run).readProgress(run);
    expect(progress.rewardHistory.map((p) => p.step)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(resumeOf(services, id)).toEqual({ step: last.step, dir: null });
  });

  it("forks a new run from a checkpoint with a change: --resume.dir that step_N", async () => {
    const { services, ctx } = await primeRl([
      ["max_steps", "4"],
      ["ckpt.interval", "2"],
      ["orchestrator.batch_size", "16"],
      ["orchestrator.group_size", "4"],
    ]);
    const parent = await runToEnd(ctx, "/rl start");

    const child = await runToEnd(ctx, `/rl fork ${parent} step_2 max_steps=6`);
    expect(services.runs.get(child)).toMatchObject({ parentId: parent, stack: "prime-rl", status: "completed" });
    expect(rewardSteps(runFile(services, child, "metrics.jsonl"))).toEqual([2, 3, 4, 5]);
    expect(resumeOf(services, child)).toEqual({ step: null, dir: runFile(services, parent, "checkpoints", "step_2") });
  });
});

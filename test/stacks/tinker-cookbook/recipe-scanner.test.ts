// createRecipeScanner over a miniature cookbook checkout (test/fixtures/cookbook), checked by hand and against the ast oracle.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { compareCookbookDiscovery } from "../../../bench/compare-cookbook-discovery.ts";
import { createRecipeScanner } from "../../../src/environments/recipes/index.ts";
import type { EnvironmentInfo, ScanResult } from "../../../src/environments/types.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const checkout = path.join(here, "..", "..", "fixtures", "cookbook");
const recipesDir = path.join(checkout, "tinker_cookbook", "recipes");

const recipe = (result: ScanResult, name: string): EnvironmentInfo => {
  const found = result.environments.find((e) => e.name === name);
  if (!found) throw new Error(`no recipe ${name}`);
  return found;
};
const field = (info: EnvironmentInfo, name: string) => info.fields.find((f) => f.name === name);

describe("createRecipeScanner", () => {
  const temps: string[] = [];
  afterEach(async () => {
    await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("lists each module whose main block hands a chz config to chz, named by its module path", async () => {
    const result = await createRecipeScanner().scan(recipesDir);
    expect(result.environments.map((e) => [e.name, e.relativePath, e.configClass])).toEqual([
      ["loop", "loop.py", "LoopConfig"],
      ["math_rl.train", "math_rl/train.py", "CLIConfig"],
      ["multiplayer_rl.guess_number.train", "multiplayer_rl/guess_number/train.py", "CLIConfig"],
      ["remote.train", "remote/train.py", "RemoteConfig"],
      ["speech.rl_train", "speech/rl_train.py", "Config"],
    ]);
    for (const info of result.environments) {
      expect(info.runnable).toBe(true);
      expect(info.className).toBe(info.configClass);
      expect(info.filePath).toBe(path.join(recipesDir, info.relativePath));
    }
    // A chz class without an entry point is not a recipe.
    expect(result.environments.some((e) => e.name === "shared.env")).toBe(false);
  });

  it("describes a recipe by its config docstring, else its module docstring", async () => {
    const result = await createRecipeScanner().scan(recipesDir);
    expect(recipe(result, "math_rl.train").description).toBe("Command-line settings for the arithmetic task.");
    expect(recipe(result, "multiplayer_rl.guess_number.train").description).toBe("Two players guess a number.");
    expect(recipe(result, "remote.train").description).toBe("");
  });

  it("reads types, defaults and descriptions, resolving Literal aliases across files", async () => {
    const math = recipe(await createRecipeScanner().scan(recipesDir), "math_rl.train");
    expect(field(math, "model_name")).toMatchObject({
      type: "str",
      fieldType: { kind: "str" },
      default: "Qwen/Qwen3-8B",
      description: "Which model to start from",
      locked: false,
    });
    expect(field(math, "group_size")).toMatchObject({ default: 4, description: "rollouts per problem" });
    expect(field(math, "renderer_name")).toMatchObject({
      type: "str | None",
      fieldType: { kind: "optional", inner: { kind: "str" } },
      default: null,
    });
    expect(field(math, "behavior_if_log_dir_exists")).toMatchObject({
      type: "cli_utils.WhenLogdirExists",
      fieldType: { kind: "enum", values: ["delete", "resume", "ask", "raise"] },
      default: "ask",
    });
    expect(field(math, "mode")?.fieldType).toEqual({ kind: "enum", values: ["fast", "slow"] });
  });

  it("flattens nested chz configs to dotted argv names, keeping an optional parent settable to None", async () => {
    const math = recipe(await createRecipeScanner().scan(recipesDir), "math_rl.train");
    const names = math.fields.map((f) => f.name);
    expect(names.slice(names.indexOf("streaming"), names.indexOf("streaming") + 3)).toEqual([
      "streaming",
      "streaming.groups_per_batch",
      "streaming.pieces",
    ]);
    expect(field(math, "streaming")).toMatchObject({ default: null, fieldType: { kind: "optional" } });
    expect(field(math, "streaming.groups_per_batch")).toMatchObject({
      default: undefined,
      description: "Trajectory groups in the whole batch.",
    });
    expect(field(math, "streaming.pieces")).toMatchObject({ default: 2, description: "Minibatches per substep." });
  });

  it("follows an imported config with its chz base, X_ names, enums, constants and factories", async () => {
    const speech = recipe(await createRecipeScanner().scan(recipesDir), "speech.rl_train");
    expect(speech.fields.map((f) => f.name)).toEqual([
      "seed",
      "label",
      "learning_rate",
      "model_name",
      "batch_size",
      "objective",
      "streaming",
      "streaming.groups_per_batch",
      "streaming.pieces",
      "tags",
      "extra",
    ]);
    // The subclass's redefinition wins but keeps the base's place, as chz orders fields.
    expect(field(speech, "seed")).toMatchObject({ default: 7, description: "" });
    expect(field(speech, "model_name")).toMatchObject({ default: undefined });
    expect(field(speech, "model_name")?.defaultExpr).toBeUndefined();
    expect(field(speech, "batch_size")?.default).toBe(128);
    expect(field(speech, "objective")).toMatchObject({
      fieldType: { kind: "enum", values: ["ppo", "importance_sampling"] },
      default: "importance_sampling",
    });
    expect(field(speech, "tags")).toMatchObject({ default: undefined, defaultExpr: "list()" });
  });

  it("lists nested_entrypoint recipes by their function's parameter annotation", async () => {
    const loop = recipe(await createRecipeScanner().scan(recipesDir), "loop");
    expect(loop.fields.map((f) => [f.name, f.default])).toEqual([
      ["steps", 10],
      ["log_dir", "/tmp/loop"],
    ]);
  });

  it("warns about syntax errors, configs outside the checkout and types it cannot read", async () => {
    const result = await createRecipeScanner().scan(recipesDir);
    const messages = result.warnings.map((w) => `${path.relative(recipesDir, w.filePath)}: ${w.message}`);
    expect(messages).toEqual([
      "broken.py: Python syntax error near line 3; file skipped",
      "math_rl/train.py: math_rl.train: types not understood, shown as any: sampler (SamplerKind)",
      "remote/train.py: remote.train: config class RemoteConfig comes from elsewhere.configs, outside the checkout; its fields are unknown",
    ]);
    expect(recipe(result, "remote.train").fields).toEqual([]);
    expect(field(recipe(result, "math_rl.train"), "sampler")).toMatchObject({
      type: "SamplerKind",
      fieldType: { kind: "any" },
      default: "greedy",
    });
  });

  it("parses only files naming the entry point, plus the modules their configs come from", async () => {
    const parsedCandidates: string[] = [];
    const scanner = createRecipeScanner({
      readFile: async (filePath) => {
        parsedCandidates.push(path.relative(checkout, filePath));
        return readFile(filePath);
      },
    });
    await scanner.scan(recipesDir);
    expect(new Set(parsedCandidates).size).toBe(parsedCandidates.length);
    // Each file is read once a scan; those outside recipes/ only because recipes import from them (packages on the way).
    expect(parsedCandidates.filter((p) => !p.startsWith("tinker_cookbook/recipes/")).sort()).toEqual([
      "tinker_cookbook/__init__.py",
      "tinker_cookbook/cli_utils.py",
      "tinker_cookbook/rl/__init__.py",
      "tinker_cookbook/rl/train.py",
    ]);
  });

  it("refuses files over the size limit, unread", async () => {
    const result = await createRecipeScanner({ maxFileBytes: 200 }).scan(recipesDir);
    expect(result.environments.map((e) => e.name)).toEqual(["remote.train"]);
    expect(result.warnings.some((w) => w.message.includes("larger than 200 bytes"))).toBe(true);
  });

  it("returns nothing for a folder without recipes and NOT_FOUND for a missing one", async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), "recipes-"));
    temps.push(empty);
    expect(await createRecipeScanner().scan(empty)).toEqual({ environments: [], warnings: [] });
    await expect(createRecipeScanner().scan(path.join(empty, "absent"))).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("agrees with the ast oracle on every recipe and field", async () => {
    const comparison = await compareCookbookDiscovery(recipesDir);
    expect(comparison.mismatches).toEqual([]);
    expect(comparison).toMatchObject({ recipesByOracle: 5, recipesInBoth: 5, fieldsByOracle: 25, fieldsMatching: 25 });
  });
});

// createEnvironmentScanner over real folders: the committed fixtures, and hostile cases built in temp dirs.
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createEnvironmentScanner } from "../../src/environments/scanner.ts";
import { SEED_LOCKED_FIELDS } from "../../src/locked-fields.ts";
import type { EnvironmentInfo, ScanResult } from "../../src/environments/types.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/envs/", import.meta.url));
const LOCKED_ENV = SEED_LOCKED_FIELDS.env;

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rl-envs-"));
  temps.push(dir);
  return dir;
}

const ENV_SOURCE = (className: string, name: string) =>
  `from atroposlib.envs.base import BaseEnv\n\n\nclass ${className}(BaseEnv):\n    name = "${name}"\n`;

function byName(result: ScanResult, name: string): EnvironmentInfo {
  const env = result.environments.find((candidate) => candidate.name === name);
  if (!env) throw new Error(`no environment ${name}; found ${result.environments.map((e) => e.name).join(", ")}`);
  return env;
}

const warningFor = (result: ScanResult, fileName: string) =>
  result.warnings.filter((warning) => path.basename(warning.filePath) === fileName).map((warning) => warning.message);

describe("scanning the fixture folder", () => {
  const scanFixtures = (recursive = false) =>
    createEnvironmentScanner({ lockedEnv: LOCKED_ENV, recursive }).scan(FIXTURES);

  it("finds exactly the real environments, sorted by path", async () => {
    const result = await scanFixtures();
    expect(result.environments.map((env) => [path.basename(env.filePath), env.className, env.name])).toEqual([
      ["algebra_env.py", "AlgebraEnv", "algebra"],
      ["attribute_env.py", "AttributeBaseEnv", "attribute_env"],
      ["gsm8k_env.py", "GSM8kEnv", "gsm8k"],
      ["gsm8k_env_v2.py", "GSM8kV2Env", "gsm8k_env_v2.py"],
      ["math_base_env.py", "MathBaseEnv", "math_base"],
      ["real_despite_imposter.py", "RealEnv", "real"],
      ["reasoning_env.py", "ReasoningEnv", "reasoning"],
      ["tool_calling_env.py", "ToolCallingEnv", "tool_calling"],
    ]);
    expect(result.environments.every((env) => path.isAbsolute(env.filePath))).toBe(true);
  });

  it("warns, without failing, about the broken, non-UTF-8 and duplicate files", async () => {
    const result = await scanFixtures();
    expect(warningFor(result, "broken_syntax_env.py")).toEqual(["Python syntax error near line 7; file skipped"]);
    expect(warningFor(result, "latin1_env.py")).toEqual(["not valid UTF-8; skipped"]);
    expect(warningFor(result, "gsm8k_env_v2.py")).toEqual([
      expect.stringContaining('duplicate environment name "gsm8k"'),
    ]);
    expect(result.warnings).toHaveLength(3);
    const paths = result.warnings.map((warning) => warning.filePath);
    expect(paths).toEqual([...paths].sort());
  });

  it("describes environments like the seed: first docstring line, or the file name", async () => {
    const result = await scanFixtures();
    expect(byName(result, "gsm8k").description).toBe("Grade-school math word problems, scored by exact answer match.");
    expect(byName(result, "attribute_env").description).toBe("Environment from attribute_env.py");
  });

  it("applies config_init overrides to BaseEnvConfig fields, and marks locked fields", async () => {
    const fields = new Map(byName(await scanFixtures(), "gsm8k").fields.map((field) => [field.name, field]));
    expect(fields.get("group_size")?.default).toBe(8);
    expect(fields.get("max_token_length")?.default).toBe(4096);
    expect(fields.get("steps_per_eval")?.default).toBe(100);
    expect(fields.get("eval_handling")?.default).toBe("LIMIT_TRAIN");
    expect(fields.get("wandb_name")?.default).toBeUndefined();
    expect(fields.get("max_eval_workers")?.default).toBe(16);
    expect(fields.get("total_steps")).toMatchObject({ default: 100, locked: true, lockedValue: 2500 });
    expect(fields.get("group_size")?.locked).toBe(false);
  });

  it("reads an own config class with Field(...) fields, Literal, Optional, List, Enum and bounds", async () => {
    const env = byName(await scanFixtures(), "reasoning");
    expect(env.configClass).toBe("ReasoningConfig");
    const fields = new Map(env.fields.map((field) => [field.name, field]));
    expect(fields.get("difficulty")).toMatchObject({
      type: 'Literal["easy", "medium", "hard"]',
      fieldType: { kind: "enum", values: ["easy", "medium", "hard"] },
      default: "medium",
      description: "Starting difficulty of the curriculum",
    });
    expect(fields.get("promote_after")).toMatchObject({
      default: 50,
      min: 0,
      minExclusive: true,
      max: 1000,
      maxExclusive: true,
    });
    expect(fields.get("temperature")).toMatchObject({ fieldType: { kind: "float" }, default: 0.7, min: 0, max: 2 });
    expect(fields.get("judge_model")).toMatchObject({
      fieldType: { kind: "optional", inner: { kind: "str" } },
      default: "gpt-4o-mini",
    });
    expect(fields.get("stop_words")).toMatchObject({
      fieldType: { kind: "list", item: { kind: "str" } },
      default: ["</answer>"],
    });
    expect(fields.get("stop_words")?.description).toBe("Stop sequences for generation");
    expect(fields.get("mode")).toMatchObject({
      fieldType: { kind: "enum", values: ["fast", "careful"] },
      default: "fast",
    });
    expect(fields.get("extra_body")).toMatchObject({ fieldType: { kind: "dict" }, default: { top_k: 20, min_p: 0 } });
    expect(fields.get("seed")).toMatchObject({
      fieldType: { kind: "optional", inner: { kind: "int" } },
      default: null,
    });
    expect(fields.get("penalty")?.default).toBe(-0.5);
    expect(fields.get("eval_max_tokens")?.default).toBe(32768);
    expect(fields.get("dataset_revision")?.default).toBeUndefined();
    expect(fields.get("eval_handling")?.default).toBe("NONE");
    expect(fields.get("group_size")?.default).toBe(8);
    expect([...fields.keys()].filter((name) => name.startsWith("_") || name === "registry")).toEqual([]);
  });

  it("follows an environment through a _ helper file for its base, config class and config_init", async () => {
    const env = byName(await scanFixtures(), "tool_calling");
    expect(env.configClass).toBe("ToolEnvConfig");
    const fields = new Map(env.fields.map((field) => [field.name, field]));
    expect(fields.get("max_tool_calls")).toMatchObject({ default: 6, min: 1, max: 16 });
    expect(fields.get("tools")?.default).toEqual(["search", "calculator"]);
    expect(fields.get("group_size")?.default).toBe(16);
  });

  it("scans subfolders only when asked", async () => {
    expect((await scanFixtures(false)).environments.map((env) => env.name)).not.toContain("deep");
    const deep = byName(await scanFixtures(true), "deep");
    expect(deep.filePath).toBe(path.join(FIXTURES, "nested", "deep_env.py"));
  });

  it("gives the same answer every time", async () => {
    expect(await scanFixtures(true)).toEqual(await scanFixtures(true));
  });
});

describe("sharing the event loop", () => {
  it("lets other callbacks run between files, so chat acks are not held up by parsing", async () => {
    const dir = await tempDir();
    for (let i = 0; i < 12; i += 1) await writeFile(path.join(dir, `e${i}_env.py`), ENV_SOURCE(`E${i}Env`, `e${i}`));
    let turns = 0;
    let running = true;
    const spin = (): void => {
      turns += 1;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    const turnsAtRead: number[] = [];
    const contents = new Map<string, Uint8Array>();
    for (let i = 0; i < 12; i += 1) contents.set(`e${i}_env.py`, await readFile(path.join(dir, `e${i}_env.py`)));
    // Reads answered from memory: without deliberate yields the whole parse loop would run in one turn.
    const scanner = createEnvironmentScanner({
      lockedEnv: {},
      // Every file's work is "long": the scan must give the loop a turn after each one.
      sliceMs: 0,
      readFile: async (filePath) => {
        turnsAtRead.push(turns);
        return contents.get(path.basename(filePath)) ?? new Uint8Array();
      },
    });
    const result = await scanner.scan(dir);
    running = false;
    expect(result.environments).toHaveLength(12);
    expect(turnsAtRead).toHaveLength(12);
    // Reads answer at once, so only the scan's own yields let other callbacks run between the first and last file.
    expect(new Set(turnsAtRead).size).toBeGreaterThanOrEqual(3);
  });
});

describe("hostile and missing folders", () => {
  it("answers a missing folder with an empty result and a warning", async () => {
    const missing = path.join(await tempDir(), "nope");
    const result = await createEnvironmentScanner({ lockedEnv: {} }).scan(missing);
    expect(result).toEqual({
      environments: [],
      warnings: [{ filePath: missing, message: expect.stringContaining("not found") }],
    });
  });

  it("refuses a file above the size limit by its size, without reading it", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "huge_env.py"), `${ENV_SOURCE("HugeEnv", "huge")}${"#".repeat(5 * 1024 * 1024)}\n`);
    await writeFile(path.join(dir, "small_env.py"), ENV_SOURCE("SmallEnv", "small"));
    const reads: string[] = [];
    const scanner = createEnvironmentScanner({
      lockedEnv: {},
      readFile: async (filePath) => {
        reads.push(path.basename(filePath));
        return readFile(filePath);
      },
    });
    const result = await scanner.scan(dir);
    expect(result.environments.map((env) => env.name)).toEqual(["small"]);
    expect(warningFor(result, "huge_env.py")).toEqual([expect.stringMatching(/over the 1000000-byte limit/)]);
    expect(reads).toEqual(["small_env.py"]);
  });

  it("honours a custom size limit", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "a_env.py"), ENV_SOURCE("AEnv", "a"));
    const result = await createEnvironmentScanner({ lockedEnv: {}, maxFileBytes: 10 }).scan(dir);
    expect(result.environments).toEqual([]);
    expect(warningFor(result, "a_env.py")).toEqual([expect.stringContaining("over the 10-byte limit")]);
  });

  it("refuses symlinks that lead outside the folder, and follows those that stay inside", async () => {
    const outside = await tempDir();
    const dir = await tempDir();
    await writeFile(path.join(outside, "secret_env.py"), ENV_SOURCE("SecretEnv", "secret"));
    await mkdir(path.join(outside, "more"));
    await writeFile(path.join(outside, "more", "more_env.py"), ENV_SOURCE("MoreEnv", "more"));
    await mkdir(path.join(dir, "inner"));
    await writeFile(path.join(dir, "inner", "target.py"), ENV_SOURCE("InsideEnv", "inside"));
    await symlink(path.join(outside, "secret_env.py"), path.join(dir, "escape_env.py"));
    await symlink(path.join(outside, "more"), path.join(dir, "escape_dir"));
    await symlink(path.join(dir, "inner", "target.py"), path.join(dir, "linked_env.py"));
    await symlink(dir, path.join(dir, "inner", "loop"));
    await symlink(path.join(dir, "gone.py"), path.join(dir, "dangling_env.py"));

    const result = await createEnvironmentScanner({ lockedEnv: {}, recursive: true }).scan(dir);
    // The link at the top level is nearer the folder's top than its target, so it keeps the name.
    expect(result.environments.map((env) => [env.name, path.relative(dir, env.filePath)])).toEqual([
      ["inner/target.py", path.join("inner", "target.py")],
      ["inside", "linked_env.py"],
    ]);
    expect(warningFor(result, "escape_env.py")).toEqual([expect.stringContaining("outside the scanned folder")]);
    expect(warningFor(result, "escape_dir")).toEqual([expect.stringContaining("outside the scanned folder")]);
    expect(warningFor(result, "dangling_env.py")).toEqual([expect.stringContaining("broken symbolic link")]);
    expect(warningFor(result, "target.py")).toEqual([expect.stringContaining('duplicate environment name "inside"')]);
  });

  it("reports an unreadable file and goes on with the rest", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "a_env.py"), ENV_SOURCE("AEnv", "a"));
    await writeFile(path.join(dir, "b_env.py"), ENV_SOURCE("BEnv", "b"));
    const scanner = createEnvironmentScanner({
      lockedEnv: {},
      readFile: async (filePath) => {
        if (filePath.endsWith("a_env.py")) throw Object.assign(new Error("permission denied"), { code: "EACCES" });
        return readFile(filePath);
      },
    });
    const result = await scanner.scan(dir);
    expect(result.environments.map((env) => env.name)).toEqual(["b"]);
    expect(warningFor(result, "a_env.py")).toEqual(["could not be read (EACCES); skipped"]);
  });

  it("does not open a FIFO named like a Python file (it would never end)", async () => {
    const dir = await tempDir();
    execFileSync("mkfifo", [path.join(dir, "pipe_env.py")]);
    const result = await createEnvironmentScanner({ lockedEnv: {} }).scan(dir);
    expect(warningFor(result, "pipe_env.py")).toEqual(["not a regular file; skipped"]);
  });

  it("ignores hidden folders and __pycache__ even when recursive", async () => {
    const dir = await tempDir();
    for (const sub of [".venv", "__pycache__"]) {
      await mkdir(path.join(dir, sub));
      await writeFile(path.join(dir, sub, "x_env.py"), ENV_SOURCE("XEnv", sub));
    }
    expect((await createEnvironmentScanner({ lockedEnv: {}, recursive: true }).scan(dir)).environments).toEqual([]);
  });
});

describe("the cache", () => {
  async function copyOfFixtures(): Promise<string> {
    const dir = path.join(await tempDir(), "envs");
    await cp(FIXTURES, dir, { recursive: true });
    return dir;
  }

  function countingScanner() {
    const reads: string[] = [];
    const scanner = createEnvironmentScanner({
      lockedEnv: LOCKED_ENV,
      readFile: async (filePath) => {
        reads.push(path.basename(filePath));
        return readFile(filePath);
      },
    });
    return { scanner, reads };
  }

  it("parses nothing and reads nothing when rescanning unchanged files", async () => {
    const dir = await copyOfFixtures();
    const { scanner, reads } = countingScanner();
    const first = await scanner.scan(dir);
    const fileCount = reads.length;
    expect(scanner.stats()).toEqual({ parsed: fileCount, cached: 0, unreached: 1 });
    reads.length = 0;
    const second = await scanner.scan(dir);
    expect(scanner.stats()).toEqual({ parsed: 0, cached: fileCount, unreached: 1 });
    expect(reads).toEqual([]);
    expect(second).toEqual(first);
  });

  it("re-reads but does not re-parse a file whose mtime changed and content did not", async () => {
    const dir = await copyOfFixtures();
    const { scanner, reads } = countingScanner();
    await scanner.scan(dir);
    const fileCount = scanner.stats().parsed;
    reads.length = 0;
    const touched = new Date("2030-01-02T03:04:05Z");
    await utimes(path.join(dir, "algebra_env.py"), touched, touched);
    await scanner.scan(dir);
    expect(scanner.stats()).toEqual({ parsed: 0, cached: fileCount, unreached: 1 });
    expect(reads).toEqual(["algebra_env.py"]);
  });

  it("re-parses only the file whose content changed, and its news reaches the result", async () => {
    const dir = await copyOfFixtures();
    const { scanner } = countingScanner();
    await scanner.scan(dir);
    const fileCount = scanner.stats().parsed;
    const file = path.join(dir, "algebra_env.py");
    await writeFile(file, (await readFile(file, "utf8")).replace('name = "algebra"', 'name = "algebra2"'));
    const later = new Date("2031-01-01T00:00:00Z");
    await utimes(file, later, later);
    const result = await scanner.scan(dir);
    expect(scanner.stats()).toEqual({ parsed: 1, cached: fileCount - 1, unreached: 1 });
    expect(result.environments.map((env) => env.name)).toContain("algebra2");
    expect(result.environments.map((env) => env.name)).not.toContain("algebra");
  });

  it("forgets deleted files and picks up new ones", async () => {
    const dir = await copyOfFixtures();
    const { scanner } = countingScanner();
    await scanner.scan(dir);
    await rm(path.join(dir, "algebra_env.py"));
    await writeFile(path.join(dir, "fresh_env.py"), ENV_SOURCE("FreshEnv", "fresh"));
    const result = await scanner.scan(dir);
    expect(scanner.stats().parsed).toBe(1);
    const names = result.environments.map((env) => env.name);
    expect(names).toContain("fresh");
    expect(names).not.toContain("algebra");
  });

  it("runs concurrent scans one after the other over the same cache", async () => {
    const dir = await copyOfFixtures();
    const { scanner } = countingScanner();
    const [first, second] = await Promise.all([scanner.scan(dir), scanner.scan(dir)]);
    expect(second).toEqual(first);
    expect(scanner.stats().parsed).toBe(0);
  });
});

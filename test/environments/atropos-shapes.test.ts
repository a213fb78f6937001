// Discovery over a folder shaped like the public Atropos environments: the shapes it got wrong, each with its own fixture.
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { toScanJson } from "../../src/environments/scan-json.ts";
import { createEnvironmentScanner } from "../../src/environments/scanner.ts";
import type { EnvironmentInfo, ScanResult } from "../../src/environments/types.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/atropos-shapes/", import.meta.url));

let result: ScanResult;
beforeAll(async () => {
  result = await createEnvironmentScanner({ lockedEnv: { use_wandb: false }, recursive: true }).scan(FIXTURES);
});

function env(className: string): EnvironmentInfo {
  const found = result.environments.find((candidate) => candidate.className === className);
  if (!found) throw new Error(`no class ${className}; found ${result.environments.map((e) => e.className).join(", ")}`);
  return found;
}

const field = (className: string, name: string) => env(className).fields.find((f) => f.name === name);
const warningsOf = (file: string) => result.warnings.filter((w) => w.filePath.endsWith(file)).map((w) => w.message);

describe("the config class is the one config_init builds", () => {
  it("follows a variable assigned from a constructor, without env_config_cls", () => {
    expect(env("CodingEnv").configClass).toBe("SandboxConfig");
    expect(field("CodingEnv", "sandbox_timeout")?.default).toBe(45);
    expect(field("CodingEnv", "group_size")?.default).toBe(8);
    expect(field("CodingEnv", "total_steps")?.default).toBe(250);
    expect(field("CodingEnv", "allow_network")?.default).toBe(true);
    expect(field("CodingEnv", "sandbox_timeout")?.description).toBe("Seconds a sandboxed run may take");
  });

  it("follows a sibling import made in both branches of try/except ImportError", () => {
    expect(env("WordGameEnv").configClass).toBe("WordGameConfig");
    expect(field("WordGameEnv", "board_size")?.default).toBe(5);
    expect(field("WordGameEnv", "min_word_length")?.default).toBe(3);
    expect(warningsOf("word_game_env.py")).toEqual([]);
  });

  it("falls back to BaseEnvConfig with a warning naming the class it could not follow", () => {
    expect(env("ExternalConfigEnv").configClass).toBe("BaseEnvConfig");
    expect(field("ExternalConfigEnv", "group_size")?.default).toBe(2);
    expect(warningsOf("external_config_env.py")).toEqual([
      "ExternalConfigEnv: config_init() builds RemoteConfig, which is not defined in the scanned folder; only BaseEnvConfig fields are listed",
    ]);
  });
});

describe("defaults that are not literals", () => {
  it("carry their source text instead of passing for none", () => {
    const exprs = Object.fromEntries(
      ["dataset_path", "run_tag", "cache_dir", "label", "retries", "wandb_name"].map((name) => [
        name,
        [field("PathsEnv", name)?.default, field("PathsEnv", name)?.defaultExpr],
      ]),
    );
    expect(exprs).toEqual({
      dataset_path: [undefined, 'os.path.join(DATA_ROOT, "data.jsonl")'],
      run_tag: [undefined, "uuid.uuid4().hex[:8]"],
      cache_dir: [undefined, "make_cache_dir()"],
      label: [undefined, "DATA_ROOT"],
      retries: [undefined, 'int(env.get("RETRIES", 3))'],
      wandb_name: [undefined, "cls.name"],
    });
  });

  it("are printed by scan --json as default_expr next to a null default", () => {
    const json = toScanJson(result).environments.find((e) => e.class_name === "PathsEnv");
    expect(json?.fields.find((f) => f.name === "dataset_path")).toMatchObject({
      default: null,
      default_expr: 'os.path.join(DATA_ROOT, "data.jsonl")',
    });
    expect(json?.fields.find((f) => f.name === "group_size")).not.toHaveProperty("default_expr");
  });
});

describe("two files that define one name", () => {
  it("give the name to the file nearest the folder's top, name both in a warning, and keep the other by its path", () => {
    const quiz = result.environments.filter((e) => e.className === "QuizEnv").map((e) => [e.relativePath, e.name]);
    expect(quiz).toEqual([
      ["community/copycat/copycat_server.py", "community/copycat/copycat_server.py"],
      ["quiz_server.py", "quiz"],
    ]);
    expect(warningsOf("copycat_server.py")).toEqual([
      'duplicate environment name "quiz": quiz_server.py (class QuizEnv) keeps it, being nearest the folder\'s top; select QuizEnv from this file as "community/copycat/copycat_server.py"',
    ]);
  });
});

describe("startable or not", () => {
  const runnability = (className: string) => [env(className).runnable, env(className).notRunnableReason];

  it("an environment whose file's main block calls its cli() is runnable, directly or through a module-level main()", () => {
    expect(runnability("QuizEnv")).toEqual([true, undefined]);
    expect(runnability("EasyPuzzleEnv")).toEqual([true, undefined]);
    expect(runnability("LauncherEnv")).toEqual([true, undefined]);
  });

  it("one with no main block, or whose main block starts another class or none, is listed with the reason", () => {
    expect(runnability("SharedBaseEnv")).toEqual([
      false,
      'shared_base_env.py has no if __name__ == "__main__": block calling SharedBaseEnv.cli(), so python shared_base_env.py serve would not start it',
    ]);
    expect(runnability("HardPuzzleEnv")).toEqual([
      false,
      'the if __name__ == "__main__": block of two_envs_server.py calls EasyPuzzleEnv.cli(), not HardPuzzleEnv.cli(), so python two_envs_server.py serve would not start it',
    ]);
    expect(runnability("ScriptedEnv")).toEqual([
      false,
      'the if __name__ == "__main__": block of launcher_env.py calls LauncherEnv.cli(), not ScriptedEnv.cli(), so python launcher_env.py serve would not start it',
    ]);
    expect(runnability("PairwiseEnv")).toEqual([
      false,
      'the if __name__ == "__main__": block of dpo_style_env.py calls no PairwiseEnv.cli(), so python dpo_style_env.py serve would not start it',
    ]);
  });

  it("scan --json gives runnable and reason", () => {
    const json = toScanJson(result).environments;
    expect(json.find((e) => e.class_name === "QuizEnv" && e.name === "quiz")).toMatchObject({ runnable: true });
    expect(json.find((e) => e.class_name === "QuizEnv" && e.name === "quiz")).not.toHaveProperty("reason");
    expect(json.find((e) => e.class_name === "SharedBaseEnv")).toMatchObject({
      runnable: false,
      reason: expect.stringContaining("has no if __name__"),
    });
  });
});

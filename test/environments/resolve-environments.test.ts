// resolveEnvironments: the pure cross-file step, fed with in-memory files.
import Parser from "tree-sitter";
import Python from "tree-sitter-python";
import { describe, expect, it } from "vitest";
import { resolveEnvironments } from "../../src/environments/resolution/resolve-environments.ts";
import type { SummarizedFile } from "../../src/environments/resolution/resolve-symbols.ts";
import { summarizePythonFile } from "../../src/environments/python/summarize-python-file.ts";
import type { ScanResult } from "../../src/environments/types.ts";

const parser = new Parser();
parser.setLanguage(Python as Parser.Language);

function summarizeFolder(files: Record<string, string>): SummarizedFile[] {
  return Object.keys(files)
    .sort()
    .map((key) => {
      const outcome = summarizePythonFile(parser, files[key] ?? "");
      if (outcome.kind !== "summary") throw new Error(`${key}: ${outcome.message}`);
      return { key, filePath: `/envs/${key}`, summary: outcome.summary };
    });
}

function resolveFolder(files: Record<string, string>, lockedEnv: Record<string, unknown> = {}): ScanResult {
  return resolveEnvironments({ files: summarizeFolder(files), lockedEnv });
}

const classNames = (result: ScanResult) => result.environments.map((env) => env.className);
const ATROPOS = "from atroposlib.envs.base import BaseEnv, BaseEnvConfig\n";

describe("which classes are environments", () => {
  it("accepts BaseEnv by name, by alias, as an attribute and through a module alias", () => {
    const result = resolveFolder({
      "a.py": `${ATROPOS}class A(BaseEnv): pass\n`,
      "b.py": "from atroposlib.envs.base import BaseEnv as AtroposEnv\nclass B(AtroposEnv): pass\n",
      "c.py": "import atroposlib.envs.base\nclass C(atroposlib.envs.base.BaseEnv): pass\n",
      "d.py": "import atroposlib.envs.base as aeb\nclass D(aeb.BaseEnv): pass\n",
      "e.py": "from atroposlib.envs import base\nclass E(base.BaseEnv): pass\n",
      "f.py": "from atroposlib.envs.base import *\nclass F(BaseEnv): pass\n",
      "g.py": "from atroposlib.envs.base import BaseEnv\nBase = BaseEnv\nclass G(Base): pass\n",
      "h.py":
        "try:\n    from atroposlib.envs.base import BaseEnv\nexcept ImportError:\n    BaseEnv = object\nclass H(BaseEnv): pass\n",
    });
    expect(classNames(result)).toEqual(["A", "B", "C", "D", "E", "F", "G", "H"]);
  });

  it("rejects classes whose base only ends in BaseEnv outside atroposlib", () => {
    const result = resolveFolder({
      "a.py": "import otherlib\nclass A(otherlib.BaseEnv): pass\n",
      "b.py": "from gymnasium import Env\nclass B(Env): pass\n",
      "c.py": "class C(object): pass\n",
    });
    expect(classNames(result)).toEqual([]);
  });

  it("follows bases through other files of the folder, transitively and by every import style", () => {
    const result = resolveFolder({
      "_base.py": `${ATROPOS}class Root(BaseEnv): pass\n`,
      "middle.py": "from _base import Root\nclass Middle(Root): pass\n",
      "leaf.py": "from middle import Middle\nclass Leaf(Middle): pass\n",
      "pkg/__init__.py": "",
      "pkg/inner.py": "from .._base import Root\nclass Inner(Root): pass\n",
      "pkg/deeper.py": "from . import inner\nclass Deeper(inner.Inner): pass\n",
      "prefixed.py": "from tinker_atropos.environments.middle import Middle\nclass Prefixed(Middle): pass\n",
      "modular.py": "import middle\nclass Modular(middle.Middle): pass\n",
      "unimported.py": "class Unimported(Leaf): pass\n",
    });
    expect(classNames(result).sort()).toEqual([
      "Deeper",
      "Inner",
      "Leaf",
      "Middle",
      "Modular",
      "Prefixed",
      "Unimported",
    ]);
  });

  it("does not take a local class named BaseEnv for Atropos's", () => {
    const result = resolveFolder({
      "imposter.py": "class BaseEnv:\n    pass\n\nclass Fake(BaseEnv): pass\n",
      "user.py": "from imposter import BaseEnv\nclass AlsoFake(BaseEnv): pass\n",
      "bare.py": "class BareFake(BaseEnv): pass\n",
      "real.py": `${ATROPOS}class Real(BaseEnv): pass\n`,
    });
    expect(classNames(result)).toEqual(["Real"]);
  });

  it("accepts a local BaseEnv that itself wraps Atropos's, as Python evaluates bases before binding the name", () => {
    const result = resolveFolder({
      "wrapped.py": `${ATROPOS}class BaseEnv(BaseEnv):\n    name = "ours"\n\nclass Wrapped(BaseEnv):\n    name = "wrapped"\n`,
    });
    expect(classNames(result)).toEqual(["BaseEnv", "Wrapped"]);
  });

  it("keeps the seed's leniency for a bare BaseEnv nobody defines", () => {
    expect(classNames(resolveFolder({ "loose.py": "from .reexports import *\nclass Loose(BaseEnv): pass\n" }))).toEqual(
      ["Loose"],
    );
  });

  it("ends on inheritance cycles, within and across files", () => {
    const result = resolveFolder({
      "a.py": "from b import B\nclass A(B): pass\n",
      "b.py": "from a import A\nclass B(A): pass\n",
      "c.py": "class P(Q): pass\nclass Q(P): pass\n",
      "d.py": "from d import D\nclass D(D): pass\n",
      "e.py": "from f import X\n",
      "f.py": "from e import X\nclass Y(X): pass\n",
    });
    expect(result.environments).toEqual([]);
  });

  it("lists no environments from _ files but uses their classes", () => {
    const result = resolveFolder({
      "_hidden.py": `${ATROPOS}class Hidden(BaseEnv): pass\n`,
      "__init__.py": `${ATROPOS}class Init(BaseEnv): pass\n`,
      "shown.py": "from _hidden import Hidden\nclass Shown(Hidden): pass\n",
    });
    expect(classNames(result)).toEqual(["Shown"]);
  });
});

describe("what is said about each environment", () => {
  it("uses name, docstring and file stem like the seed", () => {
    const result = resolveFolder({
      "named.py": `${ATROPOS}class Named(BaseEnv):\n    """Says what it does."""\n    name = "custom"\n`,
      "plain_env.py": `${ATROPOS}class Plain(BaseEnv):\n    pass\n`,
    });
    expect(
      result.environments.map(({ name, description, filePath, configClass }) => ({
        name,
        description,
        filePath,
        configClass,
      })),
    ).toEqual([
      { name: "custom", description: "Says what it does.", filePath: "/envs/named.py", configClass: "BaseEnvConfig" },
      {
        name: "plain_env",
        description: "Environment from plain_env.py",
        filePath: "/envs/plain_env.py",
        configClass: "BaseEnvConfig",
      },
    ]);
  });

  it("gives a shared name to the file nearest the top (then the shorter path), the others keep their paths", () => {
    const result = resolveFolder({
      "aa/deep.py": `${ATROPOS}class Deep(BaseEnv):\n    name = "same"\n`,
      "bbb.py": `${ATROPOS}class Longer(BaseEnv):\n    name = "same"\n`,
      "cc.py": `${ATROPOS}class Shorter(BaseEnv):\n    name = "same"\n`,
      "two.py": `${ATROPOS}class One(BaseEnv):\n    name = "pair"\nclass Two(BaseEnv):\n    name = "pair"\n`,
    });
    expect(result.environments.map((env) => [env.className, env.name])).toEqual([
      ["Deep", "aa/deep.py"],
      ["Longer", "bbb.py"],
      ["Shorter", "same"],
      ["One", "pair"],
      ["Two", "two.py:Two"],
    ]);
    expect(result.warnings.map((w) => w.filePath).sort()).toEqual(["/envs/aa/deep.py", "/envs/bbb.py", "/envs/two.py"]);
    expect(result.warnings.find((w) => w.filePath === "/envs/bbb.py")?.message).toContain(
      'duplicate environment name "same": cc.py (class Shorter) keeps it',
    );
  });

  it("inherits env_config_cls and config_init from folder ancestors, resolving the config where it was written", () => {
    const result = resolveFolder({
      "_shared.py": [
        ATROPOS,
        "from pydantic import Field",
        "class SharedConfig(BaseEnvConfig):",
        '    judge: str = "small"',
        "class SharedEnv(BaseEnv):",
        "    env_config_cls = SharedConfig",
        "    @classmethod",
        "    def config_init(cls):",
        '        return SharedConfig(judge="large", group_size=2), []',
      ].join("\n"),
      "child.py": "from _shared import SharedEnv\nclass Child(SharedEnv):\n    pass\n",
    });
    const [child] = result.environments;
    expect(child?.configClass).toBe("SharedConfig");
    const fields = new Map(child?.fields.map((field) => [field.name, field.default]));
    expect(fields.get("judge")).toBe("large");
    expect(fields.get("group_size")).toBe(2);
  });
});

describe("config fields", () => {
  const envWithConfig = (configSource: string[], initBody: string[] = ["return MyConfig(), []"]) =>
    resolveFolder(
      {
        "env.py": [
          ATROPOS,
          "from enum import Enum",
          "from pydantic import Field",
          'TOKENIZER = "Qwen/Qwen3-8B"',
          ...configSource,
          "class MyEnv(BaseEnv):",
          "    env_config_cls = MyConfig",
          "    @classmethod",
          "    def config_init(cls):",
          ...initBody.map((line) => `        ${line}`),
        ].join("\n"),
      },
      { tokenizer_name: "locked/tok", total_steps: 2500 },
    ).environments[0]?.fields ?? [];

  it("starts from BaseEnvConfig's fields in their order, then the config class's own", () => {
    const fields = envWithConfig(["class MyConfig(BaseEnvConfig):", "    extra: int = 1"]);
    expect(fields.slice(0, 3).map((field) => field.name)).toEqual([
      "group_size",
      "max_num_workers",
      "max_eval_workers",
    ]);
    expect(fields.at(-1)).toMatchObject({ name: "extra", type: "int", fieldType: { kind: "int" }, default: 1 });
  });

  it("keeps a redefined base field in place, with its new default and the base's description", () => {
    const fields = envWithConfig(["class MyConfig(BaseEnvConfig):", "    group_size: int = 16"]);
    expect(fields[0]).toMatchObject({
      name: "group_size",
      default: 16,
      description: expect.stringContaining("completions"),
    });
    expect(fields.filter((field) => field.name === "group_size")).toHaveLength(1);
  });

  it("collects fields from config-class ancestors in the folder, the nearest definition winning", () => {
    const fields = envWithConfig([
      "class Grand(BaseEnvConfig):",
      "    a: int = 1",
      "    b: int = 1",
      "class Parent(Grand):",
      "    b: int = 2",
      "    c: int = 2",
      "class MyConfig(Parent):",
      "    c: int = 3",
    ]);
    const own = fields.slice(-3).map((field) => [field.name, field.default]);
    expect(own).toEqual([
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
  });

  it("applies config_init's literal overrides, leaves non-literal ones unknown, and ignores unknown names", () => {
    const fields = envWithConfig(
      ["class MyConfig(BaseEnvConfig):", "    extra: int = 1"],
      ["cfg = MyConfig(group_size=8, extra=compute(), tokenizer_name=TOKENIZER, not_a_field=1)", "return cfg, []"],
    );
    const byName = new Map(fields.map((field) => [field.name, field]));
    expect(byName.get("group_size")?.default).toBe(8);
    expect(byName.get("extra")?.default).toBeUndefined();
    expect(byName.get("tokenizer_name")?.default).toBe("Qwen/Qwen3-8B");
    expect(byName.has("not_a_field")).toBe(false);
  });

  it("marks locked fields with their forced values", () => {
    const fields = envWithConfig(["class MyConfig(BaseEnvConfig):", "    extra: int = 1"]);
    const locked = fields.filter((field) => field.locked).map((field) => [field.name, field.lockedValue]);
    expect(locked).toEqual([
      ["tokenizer_name", "locked/tok"],
      ["total_steps", 2500],
    ]);
    expect(fields.find((field) => field.name === "extra")).not.toHaveProperty("lockedValue");
  });

  it("resolves enum types and defaults from the file's Enum classes and atroposlib's EvalHandlingEnum", () => {
    const fields = envWithConfig(
      [
        "from atroposlib.envs.base import EvalHandlingEnum",
        "class Mode(str, Enum):",
        '    FAST = "fast"',
        '    SLOW = "slow"',
        "class Level(Enum):",
        "    LOW = auto()",
        "class MyConfig(BaseEnvConfig):",
        "    mode: Mode = Mode.SLOW",
        "    level: Level = Level.LOW",
        "    handling: EvalHandlingEnum = EvalHandlingEnum.NONE",
      ],
      ["return MyConfig(eval_handling=EvalHandlingEnum.LIMIT_TRAIN), []"],
    );
    const byName = new Map(fields.map((field) => [field.name, field]));
    expect(byName.get("mode")).toMatchObject({
      fieldType: { kind: "enum", values: ["fast", "slow"] },
      default: "slow",
    });
    expect(byName.get("level")).toMatchObject({ fieldType: { kind: "any" } });
    expect(byName.get("level")?.default).toBeUndefined();
    expect(byName.get("handling")).toMatchObject({
      fieldType: { kind: "enum", values: ["STOP_TRAIN", "LIMIT_TRAIN", "NONE"] },
      default: "NONE",
    });
    expect(byName.get("eval_handling")?.default).toBe("LIMIT_TRAIN");
  });

  it("turns Field bounds into min/max, marking exclusive ones", () => {
    const fields = envWithConfig([
      "class MyConfig(BaseEnvConfig):",
      "    t: float = Field(0.5, ge=0, le=2)",
      "    n: int = Field(1, gt=0, lt=-(-10))",
      "    m: int = Field(1, ge=LIMIT)",
    ]);
    const [t, n, m] = fields.slice(-3);
    expect(t).toMatchObject({ min: 0, max: 2 });
    expect(t).not.toHaveProperty("minExclusive");
    expect(n).toMatchObject({ min: 0, minExclusive: true, max: 10, maxExclusive: true });
    expect(m).not.toHaveProperty("min");
  });

  it("warns when the config class is not in the folder, listing BaseEnvConfig's fields", () => {
    const result = resolveFolder({
      "env.py": `${ATROPOS}from elsewhere import OutsideConfig\nclass E(BaseEnv):\n    env_config_cls = OutsideConfig\n`,
    });
    expect(result.environments[0]?.fields).toHaveLength(29);
    expect(result.warnings).toEqual([
      {
        filePath: "/envs/env.py",
        message: expect.stringContaining("OutsideConfig is not defined in the scanned folder"),
      },
    ]);
  });

  it("hands out copies, so editing one result cannot corrupt the next", () => {
    // The summaries are what the cache keeps between scans.
    const files = summarizeFolder({
      "env.py": `${ATROPOS}class C(BaseEnvConfig):\n    tags: list = ["a"]\nclass E(BaseEnv):\n    env_config_cls = C\n`,
    });
    const first = resolveEnvironments({ files, lockedEnv: {} }).environments[0]?.fields;
    (first?.at(-1)?.default as string[]).push("mutated");
    const group = first?.[0]?.fieldType;
    if (group?.kind === "int") Object.assign(group, { kind: "str" });
    const again = resolveEnvironments({ files, lockedEnv: {} }).environments[0]?.fields;
    expect(again?.at(-1)?.default).toEqual(["a"]);
    expect(again?.[0]?.fieldType).toEqual({ kind: "int" });
  });
});

describe("startable means importable as python FILE serve", () => {
  const MAIN = (cls: string) => `\nif __name__ == "__main__":\n    ${cls}.cli()\n`;
  const runnability = (result: ScanResult, cls: string) => {
    const env = result.environments.find((e) => e.className === cls);
    return { runnable: env?.runnable, reason: env?.notRunnableReason };
  };

  it("marks a file with a top-level relative import not startable, with the reason", () => {
    const result = resolveFolder({
      "pkg/helpers.py": "VALUE = 1\n",
      "pkg/rel_env.py": `${ATROPOS}from .helpers import VALUE\nclass RelEnv(BaseEnv):\n    pass\n${MAIN("RelEnv")}`,
      "pkg/star_env.py": `${ATROPOS}from .helpers import *\nclass StarEnv(BaseEnv):\n    pass\n${MAIN("StarEnv")}`,
      "pkg/guarded_env.py": `${ATROPOS}try:\n    from .helpers import VALUE\nexcept ImportError:\n    VALUE = 2\nclass GuardedEnv(BaseEnv):\n    pass\n${MAIN("GuardedEnv")}`,
      "pkg/plain_env.py": `${ATROPOS}class PlainEnv(BaseEnv):\n    pass\n${MAIN("PlainEnv")}`,
    });
    expect(runnability(result, "RelEnv")).toEqual({
      runnable: false,
      reason: expect.stringMatching(
        /^rel_env\.py imports VALUE from \.helpers at top level, a relative import .* python rel_env\.py serve fails with ImportError/,
      ),
    });
    expect(runnability(result, "StarEnv")).toMatchObject({
      runnable: false,
      reason: expect.stringMatching(/\* from \.helpers/),
    });
    expect(runnability(result, "GuardedEnv")).toEqual({ runnable: true, reason: undefined });
    expect(runnability(result, "PlainEnv")).toEqual({ runnable: true, reason: undefined });
  });

  it("marks a file importing a name atroposlib.envs.base does not define not startable (sft_loader_server's OpenaiConfig)", () => {
    const result = resolveFolder({
      "sft_env.py": `from atroposlib.envs.base import BaseEnv, BaseEnvConfig, OpenaiConfig, ScoredDataGroup\nclass SftEnv(BaseEnv):\n    pass\n${MAIN("SftEnv")}`,
      "ok_env.py": `from atroposlib.envs.base import BaseEnv, Field, ServerBaseline\nclass OkEnv(BaseEnv):\n    pass\n${MAIN("OkEnv")}`,
    });
    expect(runnability(result, "SftEnv")).toEqual({
      runnable: false,
      reason:
        "sft_env.py imports OpenaiConfig from atroposlib.envs.base, which atroposlib does not define, so python sft_env.py serve fails with ImportError before it starts",
    });
    expect(runnability(result, "OkEnv").runnable).toBe(true);
  });
});

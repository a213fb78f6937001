// summarizePythonFile: one tree-sitter parse -> the plain data discovery needs, without running the code.
import Parser from "tree-sitter";
import Python from "tree-sitter-python";
import { describe, expect, it } from "vitest";
import type { Binding, FileSummary, PyValue } from "../../src/environments/python/python-file-summary.ts";
import { summarizePythonFile } from "../../src/environments/python/summarize-python-file.ts";

const parser = new Parser();
parser.setLanguage(Python as Parser.Language);

function summarize(source: string): FileSummary {
  const outcome = summarizePythonFile(parser, source);
  if (outcome.kind !== "summary") throw new Error(`refused: ${outcome.message}`);
  return outcome.summary;
}

function valueOf(expression: string): PyValue {
  const binding = summarize(`x = ${expression}\n`).bindings.find((entry) => entry.name === "x")?.binding;
  if (binding?.kind !== "value") throw new Error("no value binding");
  return binding.value;
}

function bindingsOf(source: string): Record<string, Binding> {
  return Object.fromEntries(summarize(source).bindings.map((entry) => [entry.name, entry.binding]));
}

describe("literal values", () => {
  it("converts Python literals to JS values", () => {
    expect(valueOf("42")).toEqual({ kind: "literal", value: 42 });
    expect(valueOf("-3")).toEqual({ kind: "literal", value: -3 });
    expect(valueOf("1_000")).toEqual({ kind: "literal", value: 1000 });
    expect(valueOf("0x1F")).toEqual({ kind: "literal", value: 31 });
    expect(valueOf("2.5e-3")).toEqual({ kind: "literal", value: 0.0025 });
    expect(valueOf("-.5")).toEqual({ kind: "literal", value: -0.5 });
    expect(valueOf("True")).toEqual({ kind: "literal", value: true });
    expect(valueOf("False")).toEqual({ kind: "literal", value: false });
    expect(valueOf("None")).toEqual({ kind: "literal", value: null });
    expect(valueOf(`[1, "a", None, (2, 3)]`)).toEqual({ kind: "literal", value: [1, "a", null, [2, 3]] });
    expect(valueOf(`{"a": {"b": [True]}, 1: -1.5}`)).toEqual({ kind: "literal", value: { a: { b: [true] }, 1: -1.5 } });
  });

  it("decodes strings the way Python does", () => {
    expect(valueOf(`"tab\\there\\x41\\u00e9"`)).toEqual({ kind: "literal", value: "tab\there\x41\u00e9" });
    expect(valueOf(`r"C:\\new"`)).toEqual({ kind: "literal", value: "C:\\new" });
    expect(valueOf(`"con" 'cat' """enated"""`)).toEqual({ kind: "literal", value: "concatenated" });
    expect(valueOf(`f"no fields {{here}}"`)).toEqual({ kind: "literal", value: "no fields {here}" });
    expect(valueOf(`"naïve 😀"`)).toEqual({ kind: "literal", value: "naïve 😀" });
  });

  it("folds constant arithmetic, which configs use for sizes", () => {
    expect(valueOf("1024 * 32")).toEqual({ kind: "literal", value: 32768 });
    expect(valueOf("(2 ** 10) // 3 - 1")).toEqual({ kind: "literal", value: 340 });
    expect(valueOf("1 / 0")).toEqual({ kind: "expr", text: "1 / 0" });
  });

  it("keeps names for later resolution, and the source text of everything that would need running code", () => {
    expect(valueOf("Mode.FAST")).toEqual({ kind: "ref", path: ["Mode", "FAST"] });
    expect(valueOf("DEFAULT")).toEqual({ kind: "ref", path: ["DEFAULT"] });
    for (const expression of [
      `f"{name}-env"`,
      `b"bytes"`,
      "os.getenv('X')",
      "[1, compute()]",
      "{**base}",
      "1j",
      `"\\N{DASH}"`,
    ]) {
      expect(valueOf(expression)).toEqual({ kind: "expr", text: expression });
    }
    expect(
      valueOf(`os.path.join(
    ROOT, "data"
)`),
    ).toEqual({ kind: "expr", text: 'os.path.join( ROOT, "data" )' });
    expect(valueOf("...")).toEqual({ kind: "unknown" });
  });
});

describe("module bindings", () => {
  it("records imports, aliases, star imports, classes and constants", () => {
    const source = [
      "import atroposlib.envs.base",
      "import atroposlib.envs.base as aeb",
      "from atroposlib.envs.base import BaseEnv as AE, BaseEnvConfig",
      "from . import sibling",
      "from ..pkg.mod import Thing",
      "from helpers import *",
      "try:",
      "    from fast import Speedy",
      "except ImportError:",
      "    Speedy = None",
      "class Local: pass",
      "LIMIT = 10",
    ].join("\n");
    const summary = summarize(source);
    const bindings = bindingsOf(source);
    expect(bindings.atroposlib).toEqual({ kind: "import-module", module: "atroposlib" });
    expect(bindings.aeb).toEqual({ kind: "import-module", module: "atroposlib.envs.base" });
    expect(bindings.AE).toEqual({ kind: "import-from", module: "atroposlib.envs.base", name: "BaseEnv" });
    expect(bindings.BaseEnvConfig).toEqual({
      kind: "import-from",
      module: "atroposlib.envs.base",
      name: "BaseEnvConfig",
    });
    expect(bindings.sibling).toEqual({ kind: "import-from", module: ".", name: "sibling" });
    expect(bindings.Thing).toEqual({ kind: "import-from", module: "..pkg.mod", name: "Thing" });
    expect(bindings.Speedy).toEqual({ kind: "value", value: { kind: "literal", value: null } });
    expect(summary.bindings.filter((entry) => entry.fallback).map((entry) => entry.name)).toEqual(["Speedy"]);
    expect(bindings.Local).toEqual({ kind: "class", index: 0 });
    expect(bindings.LIMIT).toEqual({ kind: "value", value: { kind: "literal", value: 10 } });
    expect(summary.starImports).toEqual(["helpers"]);
    const orders = summary.bindings.map((entry) => entry.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
  });
});

describe("classes", () => {
  it("reads bases, the name attribute, the first docstring line and env_config_cls", () => {
    const [cls] = summarize(
      [
        "@some_decorator",
        "class MyEnv(pkg.mod.Base, Other, Generic[T], metaclass=ABCMeta):",
        '    """',
        "",
        "    First real line.",
        "    Second line.",
        '    """',
        '    name = "my_env"',
        "    env_config_cls = configs.MyConfig",
      ].join("\n"),
    ).classes;
    expect(cls).toMatchObject({
      name: "MyEnv",
      line: 2,
      bases: [["pkg", "mod", "Base"], ["Other"], null],
      docstring: "First real line.",
      envName: "my_env",
      envConfigCls: ["configs", "MyConfig"],
    });
  });

  it("takes only a real docstring and a literal name", () => {
    const [cls] = summarize(
      ["class E(B):", "    name = compute_name()", "    x = 1", '    "not a docstring"'].join("\n"),
    ).classes;
    expect(cls?.docstring).toBeUndefined();
    expect(cls?.envName).toBeUndefined();
  });

  it("reads config fields: plain defaults, Field(...) with description and bounds, required ones", () => {
    const [cls] = summarize(
      [
        "class Cfg(BaseEnvConfig):",
        "    a: int = 3",
        '    b: Optional[str] = Field(None, description="B " "field")',
        "    c: float = pydantic.Field(default=0.5, ge=0, lt=1.5)",
        "    d: List[str] = Field(default_factory=list)",
        "    e: str = Field(...)",
        "    f: int",
        "    g: dict = Field(default_factory=lambda: {'k': 1})",
        "    _private: int = 1",
        "    registry: ClassVar[dict] = {}",
        "    model_config = ConfigDict(extra='forbid')",
      ].join("\n"),
    ).classes;
    expect(cls?.fields).toEqual([
      { name: "a", annotation: "int", default: { kind: "literal", value: 3 } },
      { name: "b", annotation: "Optional[str]", default: { kind: "literal", value: null }, description: "B field" },
      { name: "c", annotation: "float", default: { kind: "literal", value: 0.5 }, ge: 0, lt: 1.5 },
      { name: "d", annotation: "List[str]", default: { kind: "literal", value: [] } },
      { name: "e", annotation: "str", default: { kind: "unknown" } },
      { name: "f", annotation: "int", default: { kind: "unknown" } },
      { name: "g", annotation: "dict", default: { kind: "literal", value: { k: 1 } } },
    ]);
  });

  it("reads an Enum's members", () => {
    const [cls] = summarize(["class Mode(str, Enum):", '    FAST = "fast"', "    SLOW = auto()"].join("\n")).classes;
    expect(cls?.members).toEqual([
      { name: "FAST", value: { kind: "literal", value: "fast" } },
      { name: "SLOW", value: { kind: "expr", text: "auto()" } },
    ]);
  });
});

describe("config_init", () => {
  const configInitOf = (body: string[]) =>
    summarize(
      [
        "class E(BaseEnv):",
        "    @classmethod",
        "    def config_init(cls):",
        ...body.map((line) => `        ${line}`),
      ].join("\n"),
    ).classes[0]?.configInit;

  it("reads keyword arguments of a config built into a variable, then attribute assignments", () => {
    expect(
      configInitOf([
        "env_config = MyConfig(group_size=8, wandb_name=f'{x}', **extra)",
        "env_config.total_steps = 100",
        "other.total_steps = 5",
        "server_configs = [APIServerConfig(model_name='m')]",
        "return env_config, server_configs",
      ]),
    ).toEqual({
      configClass: ["MyConfig"],
      overrides: [
        { name: "group_size", value: { kind: "literal", value: 8 } },
        { name: "wandb_name", value: { kind: "expr", text: "f'{x}'" } },
        { name: "total_steps", value: { kind: "literal", value: 100 } },
      ],
    });
  });

  it("reads a config returned directly, in a tuple or parenthesized", () => {
    expect(configInitOf(["return (cls.env_config_cls(total_steps=3), [])"])?.overrides).toEqual([
      { name: "total_steps", value: { kind: "literal", value: 3 } },
    ]);
    expect(configInitOf(["return MyConfig(group_size=2), []"])?.overrides).toEqual([
      { name: "group_size", value: { kind: "literal", value: 2 } },
    ]);
  });

  it("names the class it builds, as atroposlib takes type(config_init()[0])", () => {
    expect(configInitOf(["return (cls.env_config_cls(total_steps=3), [])"])?.configClass).toEqual([
      "cls",
      "env_config_cls",
    ]);
    expect(configInitOf(["cfg = configs.CodeConfig()", "return cfg, []"])?.configClass).toEqual([
      "configs",
      "CodeConfig",
    ]);
  });

  it("ignores helper calls and configs it cannot trace, yet marks that config_init is there", () => {
    expect(configInitOf(["cfg = make_config(group_size=8)", "return cfg, []"])).toEqual({ overrides: [] });
    expect(configInitOf(["cfg = MyConfig(group_size=8)", "cfg = load()", "return cfg, []"])).toEqual({ overrides: [] });
    expect(configInitOf(["return load(), []"])?.overrides ?? []).toEqual([]);
  });
});

describe("syntax errors", () => {
  it("refuses the file and names the line of the first error", () => {
    const outcome = summarizePythonFile(parser, "import os\n\nclass A(BaseEnv):\n    def f(self:\n        pass\n");
    expect(outcome).toEqual({ kind: "refused", message: expect.stringMatching(/syntax error near line 4\b/) });
  });

  it("refuses a missing token too", () => {
    const outcome = summarizePythonFile(parser, "x = (1,\n");
    expect(outcome.kind).toBe("refused");
  });
});

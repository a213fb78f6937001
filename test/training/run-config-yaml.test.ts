// The run YAML the bot writes, read back the way PyYAML (YAML 1.1) reads it: every value keeps its value and type.
import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { SEED_LOCKED_FIELDS } from "../../src/locked-fields.ts";
import { buildRunConfig, shownRunNames, writeRunConfig } from "../../src/stacks/atropos-tinker/run-config.ts";
import { tempDir } from "../helpers/test-services.ts";

const execFileAsync = promisify(execFile);
const DEMO_DIR = fileURLToPath(new URL("../../examples/demo-stack/", import.meta.url));

// [value the bot means, the Python type PyYAML must give it]
const TABLE: Array<[unknown, string]> = [
  ...["yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "y", "Y", "n", "N"].map(
    (s): [unknown, string] => [s, "str"],
  ),
  ...["true", "True", "FALSE", "false", "~", "null", "Null", "NULL"].map((s): [unknown, string] => [s, "str"]),
  ...["0x1F", "0o17", "017", "0b101", "1_000", "1:20", "190:20:30.15", "-12", "+7", "3"].map((s): [unknown, string] => [
    s,
    "str",
  ]),
  ...["1e-7", "1.0e-07", "1.0e7", "1.5", ".5", ".inf", "-.Inf", ".nan", ".NaN"].map((s): [unknown, string] => [
    s,
    "str",
  ]),
  ...["2024-01-31", "2024-01-31 10:00:00", "2024-1-3T1:02:03Z", "<<", "=", "my-run", "Qwen/Qwen3-8B"].map(
    (s): [unknown, string] => [s, "str"],
  ),
  [true, "bool"],
  [false, "bool"],
  [null, "NoneType"],
  [0, "int"],
  [-5, "int"],
  [2500, "int"],
  [0.5, "float"],
  [1e-7, "float"],
  [-1e-7, "float"],
  [4e-5, "float"],
  [1.5e-10, "float"],
  [1e21, "float"],
  [6.02e23, "float"],
  [123456789.125, "float"],
];

const PRINT_TYPES = `
import json, sys
import demo_yaml
env = demo_yaml.load(sys.argv[1])["env"]
print(json.dumps({k: [type(v).__name__, v] for k, v in env.items()}, default=str))
`;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function writeTable(): { file: string; meant: Record<string, unknown> } {
  dir = tempDir("rl-yaml-");
  const meant: Record<string, unknown> = Object.fromEntries(TABLE.map(([value], i) => [`v${i}`, value]));
  const config = buildRunConfig({
    runId: "r1",
    environment: "demo",
    values: { ...meant, wandb_name: "yes" },
    locked: { ...SEED_LOCKED_FIELDS, env: {} },
    wandbProject: "p",
  });
  return { file: writeRunConfig(dir, "r1", config, []), meant };
}

const PYYAML_SAFE_LOAD =
  "import yaml,sys,json; print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding='utf-8')), ensure_ascii=True))";

/** Strings with every character PyYAML's reader refuses or reads as a line break, and spaces where it trims. */
function specialStrings(): string[] {
  const chars = [
    ...Array.from({ length: 0xa0 }, (_, c) => String.fromCharCode(c)),
    ...["\u2028", "\u2029", "\ufeff", "\ufffe", "\uffff", "\ud800", "\udfff", "\u1680", "\u3000"],
  ];
  return [
    ...chars.flatMap((c) => [c, `a${c}b`, `${c}lead`, `trail${c}`, `${c}${c}`]),
    " leading space",
    "trailing space ",
    "  ",
    "a\n\nb\n",
    "-0.0",
    "a #b",
    "a: b",
  ];
}

describe("run YAML as PyYAML reads it", () => {
  it("writes the WandB names /rl config shows (the run id in place of its placeholder), and a name set here instead of the bot's", async () => {
    dir = tempDir("rl-yaml-");
    const shown = shownRunNames("letters", "team-proj");
    const read = async (values: Record<string, unknown>) => {
      const config = buildRunConfig({
        runId: "ab12cd34",
        environment: "letters",
        values,
        locked: { ...SEED_LOCKED_FIELDS, env: {} },
        wandbProject: "team-proj",
      });
      const file = writeRunConfig(dir!, "ab12cd34", config, []);
      const { stdout } = await execFileAsync("python3", ["-c", PYYAML_SAFE_LOAD, file]);
      return JSON.parse(stdout) as { env: Record<string, unknown>; tinker: Record<string, unknown> };
    };
    const written = await read({});
    const asRun = (name: string) => shown[name]!.replace("{run id}", "ab12cd34");
    expect(written.env.wandb_name).toBe(asRun("wandb_name"));
    for (const key of ["wandb_project", "wandb_group", "wandb_run_name"])
      expect(written.tinker[key], key).toBe(asRun(`tinker.${key}`));
    expect(asRun("wandb_name")).toBe("letters-ab12cd34");
    expect((await read({ wandb_name: "mine" })).env.wandb_name).toBe("mine");
  });

  it("quotes or escapes every character PyYAML treats specially: the real PyYAML reads each value back exactly", async () => {
    dir = tempDir("rl-yaml-");
    const strings = specialStrings();
    const meant = Object.fromEntries(strings.map((value, i) => [`s${i}`, value]));
    const config = buildRunConfig({
      runId: "r1",
      environment: "demo",
      values: { ...meant, [`key\u2028with\u0085breaks`]: 1 },
      locked: { ...SEED_LOCKED_FIELDS, env: {} },
      wandbProject: "p",
    });
    const file = writeRunConfig(dir, "r1", config, []);
    const { stdout } = await execFileAsync("python3", ["-c", PYYAML_SAFE_LOAD, file]);
    const read = JSON.parse(stdout) as { env: Record<string, unknown>; openai: unknown; tinker: unknown };
    strings.forEach((value, i) => expect(read.env[`s${i}`], JSON.stringify(value)).toBe(value));
    expect(read.env["key\u2028with\u0085breaks"]).toBe(1);
    // The whole file, not only the strings: every value the bot meant, as PyYAML gives it.
    expect(read).toEqual(JSON.parse(JSON.stringify(config)));
  });

  it("the real PyYAML gives every value and its type back, as the demo stack's reader does", async () => {
    const { file, meant } = writeTable();
    const { stdout } = await execFileAsync("python3", [
      "-c",
      "import yaml,sys,json; env = yaml.safe_load(open(sys.argv[1]))['env']; " +
        "print(json.dumps({k: [type(v).__name__, v] for k, v in env.items()}, default=str))",
      file,
    ]);
    const read = JSON.parse(stdout) as Record<string, [string, unknown]>;
    TABLE.forEach(([value, type], i) => expect(read[`v${i}`], JSON.stringify(value)).toEqual([type, meant[`v${i}`]]));
  });

  it("gives every value and its type back through PyYAML's resolution rules (the demo stack's reader)", async () => {
    const { file, meant } = writeTable();
    const { stdout } = await execFileAsync("python3", ["-c", PRINT_TYPES, file], {
      cwd: DEMO_DIR,
      env: { ...process.env, PYTHONPATH: DEMO_DIR, PYTHONDONTWRITEBYTECODE: "1" },
    });
    const read = JSON.parse(stdout) as Record<string, [string, unknown]>;
    TABLE.forEach(([value, type], i) => {
      expect(
        read[`v${i}`],
        `${JSON.stringify(value)} in ${readFileSync(file, "utf8")
          .split("\n")
          .find((l) => l.includes(`v${i}:`))}`,
      ).toEqual([type, meant[`v${i}`]]);
    });
    expect(read.wandb_name).toEqual(["str", "yes"]);
  });

  it("gives the same values back to a YAML 1.1 reader in JS", () => {
    const { file, meant } = writeTable();
    const env = (parse(readFileSync(file, "utf8"), { version: "1.1" }) as { env: Record<string, unknown> }).env;
    for (const [key, value] of Object.entries(meant)) expect(env[key], key).toEqual(value);
  });

  it("writes floats with a dot and a signed exponent, which PyYAML needs to read a float", () => {
    const { file } = writeTable();
    const text = readFileSync(file, "utf8");
    expect(text).toContain(`v${TABLE.findIndex(([v]) => v === 1e-7)}: 1.0e-07\n`);
    expect(text).toContain(`v${TABLE.findIndex(([v]) => v === 1e21)}: 1.0e+21\n`);
    expect(path.basename(file)).toBe("run_r1.yaml");
  });
});

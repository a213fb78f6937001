// What /rl config, /rl set, /rl reset and the start preview show is what the run YAML gets and what the run uses.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import { loadConfig } from "../../src/config.ts";
import { createServices, type Services } from "../../src/services.ts";
import { SEED_LOCKED_FIELDS } from "../../src/locked-fields.ts";
import { buildRunConfig, writeRunConfig } from "../../src/stacks/atropos-tinker/run-config.ts";
import {
  groupSizeProblem,
  registeredBatchSize,
  TINKER_ENV_BATCH_SIZE,
} from "../../src/stacks/atropos-tinker/trainer-batch-size.ts";
import { parseConfigJson, stringifyConfigJson } from "../../db/config-json.ts";
import { runCliCommand } from "../../adapters/console/cli-command.ts";
import type { BotRequest } from "../../src/lease/ask-bot.ts";
import { runSlash, slashContext } from "../helpers/slash-dispatch.ts";
import { tempDir } from "../helpers/test-services.ts";

const execFileAsync = promisify(execFile);

// Shaped like letter_counting's config_init: every default is a lookup in a YAML it reads, with a literal fallback.
const LOOKUP_ENV = `
import os
from typing import Optional

from atroposlib.envs.base import BaseEnv, BaseEnvConfig
from pydantic import Field

ROOT = os.path.dirname(os.path.abspath(__file__))


class LookupConfig(BaseEnvConfig):
    data_dir: str = os.path.join(ROOT, "data")
    note: str = Field(default="plain", description="A text field")
    title: Optional[str] = Field(default=None, description="An optional text field")
    ratio: float = Field(default=0.5, description="Any float")
    cap: float = Field(default=1.0, le=10.0, description="A float at most 10")


class LookupEnv(BaseEnv):
    name = "lookup"
    env_config_cls = LookupConfig

    @classmethod
    def config_init(cls):
        env = {}
        config = LookupConfig(
            group_size=env.get("group_size", 16),
            batch_size=env.get("batch_size", 256),
            total_steps=int(env.get("total_steps", 40)),
        )
        return config, []

    async def setup(self):
        pass

    async def get_next_item(self):
        return None

    async def evaluate(self, *args, **kwargs):
        return None


if __name__ == "__main__":
    LookupEnv.cli()
`;

const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

/** Services over a folder holding the lookup environment; with a training root of its own, the real trainer's rules. */
function services(realTrainer: boolean, lockedYaml?: string): Services {
  const root = tempDir("rl-shown-");
  const envs = path.join(root, "tinker_atropos", "environments");
  mkdirSync(envs, { recursive: true });
  writeFileSync(path.join(envs, "lookup_env.py"), LOOKUP_ENV);
  const locked = path.join(root, "locked-fields.yaml");
  if (lockedYaml !== undefined) writeFileSync(locked, lockedYaml);
  const s = createServices(
    loadConfig(
      {
        RL_LOG_LEVEL: "silent",
        RL_OPERATORS: "slack:U1",
        RL_ENVIRONMENTS_DIR: envs,
        ...(realTrainer ? { RL_TRAINING_ROOT: root } : {}),
        ...(lockedYaml !== undefined ? { RL_LOCKED_FIELDS: locked } : {}),
      },
      tempDir(),
    ),
  );
  opened.push(s);
  return s;
}

const run = runSlash;

async function fieldOf(s: Services, name: string, label: string): Promise<string | undefined> {
  return (await run(s, `/rl config ${name}`)).fields?.find((f) => f.label === label)?.value;
}

const PYYAML_SAFE_LOAD =
  "import yaml,sys,json; print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding='utf-8')), ensure_ascii=True))";

/** The env: section of the run YAML the bot would write for these channel values, as the real PyYAML reads it. */
async function pyyamlEnv(values: Record<string, unknown>): Promise<Record<string, unknown>> {
  const dir = tempDir("rl-shown-yaml-");
  const config = buildRunConfig({
    runId: "r1",
    environment: "lookup",
    values,
    locked: { ...SEED_LOCKED_FIELDS, env: {} },
    wandbProject: "p",
  });
  const file = writeRunConfig(dir, "r1", config, []);
  const { stdout } = await execFileAsync("python3", ["-c", PYYAML_SAFE_LOAD, file]);
  return (JSON.parse(stdout) as { env: Record<string, unknown> }).env;
}

describe("computed defaults are never shown as none", () => {
  it("/rl config, /rl set, /rl reset and the start preview say the literal fallback, or that the environment computes it", async () => {
    // Locked fields that leave total_steps to the environment, so the start preview shows its computed default.
    const s = services(false, "env:\n  use_wandb: false\n");
    expect((await run(s, "/rl select lookup")).error).toBeUndefined();
    const fallback = '16, or what `env.get("group_size", 16)` finds when the environment starts';
    expect(await fieldOf(s, "group_size", "Current")).toBe(fallback);
    expect(await fieldOf(s, "group_size", "Default")).toBe(fallback);
    expect(await fieldOf(s, "data_dir", "Current")).toBe(
      'set when the environment starts: `os.path.join(ROOT, "data")`',
    );
    const list = (await run(s, "/rl config")).fields ?? [];
    for (const name of ["group_size", "batch_size", "total_steps", "data_dir"]) {
      const entry = list.find((f) => f.label.startsWith(`${name} `))?.value ?? "";
      expect(entry, name).not.toMatch(/^none/);
    }

    const set = await run(s, "/rl set group_size 8");
    expect(set.text).toBe(`Was ${fallback} (lookup).`);
    expect(JSON.stringify(set)).not.toContain("Was none");
    const changed = (await run(s, "/rl config")).fields ?? [];
    expect(changed.find((f) => f.label.startsWith("group_size *"))?.value).toContain(`8 (default ${fallback})`);
    const reset = await run(s, "/rl reset group_size");
    expect(reset.title).toBe(`Reset group_size to ${fallback}`);
    const setPath = await run(s, "/rl set data_dir /tmp/x");
    expect(setPath.text).toBe('Was set when the environment starts: `os.path.join(ROOT, "data")` (lookup).');
    expect((await run(s, "/rl reset data_dir")).title).not.toContain("none");

    const preview = await run(s, "/rl start");
    expect(preview.fields?.find((f) => f.label === "Steps")?.value).toBe(
      '40, or what `int(env.get("total_steps", 40))` finds when the environment starts',
    );
  });
});

describe("values the trainer imposes at run time", () => {
  // A real Atropos checkout (read-only), named by RL_TEST_ATROPOS_DIR: the public repository is not installed by CI.
  const base = path.join(process.env.RL_TEST_ATROPOS_DIR ?? "/nonexistent", "atroposlib", "envs", "base.py");
  it("follow the real code: base.py takes the registered batch_size (unless -1) and refuses group_size > batch_size", (ctx) => {
    if (!existsSync(base))
      return ctx.skip("no Atropos checkout: set RL_TEST_ATROPOS_DIR to one (git clone NousResearch/atropos)");
    const source = readFileSync(base, "utf8");
    expect(source).toContain('if data["batch_size"] != -1:');
    expect(source).toContain('self.config.batch_size = data["batch_size"]');
    expect(source).toContain("if self.config.group_size > self.config.batch_size:");
    // tinker-atropos's EnvConfig (batch_size: int = 128) is not checked out here: TINKER_ENV_BATCH_SIZE pins it.
  });

  it("the batch size each trainer registers: the run YAML's, else tinker-atropos's 128, else the demo trainer's group_size × 4", () => {
    expect(TINKER_ENV_BATCH_SIZE).toBe(128);
    expect(registeredBatchSize({}, false)).toBe(128);
    expect(registeredBatchSize({ batch_size: 64, group_size: 8 }, false)).toBe(64);
    expect(registeredBatchSize({ batch_size: -1 }, false)).toBe(-1);
    expect(registeredBatchSize({}, true)).toBe(64);
    expect(registeredBatchSize({ group_size: 8 }, true)).toBe(32);
    expect(registeredBatchSize({ batch_size: -1, group_size: 8 }, true)).toBe(32);
    expect(registeredBatchSize({ batch_size: 10 }, true)).toBe(10);
    const demo = readFileSync(new URL("../../examples/demo-stack/launch_training.py", import.meta.url), "utf8");
    expect(demo).toContain("DEFAULT_GROUPS_PER_BATCH = 4");
    expect(demo).toContain('self.group_size = _get(env, "group_size", 16, int, "env")');
  });

  it("/rl config and the start preview show the trainer's batch_size as the one used; /rl set refuses a group_size above it, with what to do", async () => {
    const s = services(true);
    await run(s, "/rl select lookup");
    expect(await fieldOf(s, "batch_size", "Current")).toBe(
      '256, or what `env.get("batch_size", 256)` finds when the environment starts — at run time the trainer\'s batch_size 128 is used',
    );
    const preview = await run(s, "/rl start");
    expect(preview.fields?.find((f) => f.label === "At run time")?.value).toContain(
      'batch_size 256, or what `env.get("batch_size", 256)` finds when the environment starts — at run time the trainer\'s batch_size 128 is used',
    );

    const refused = await run(s, "/rl set group_size 200");
    expect(refused.error?.code).toBe("INVALID_VALUE");
    expect(refused.error?.message).toContain(
      "group_size 200 is more than the batch size the run will use (128: at run time the trainer's batch_size 128 is used)",
    );
    expect(refused.error?.message).toContain("/rl set batch_size 200");
    expect(refused.error?.message).toContain("a group_size of at most 128");
    expect(await fieldOf(s, "group_size", "Changed here")).toBe("no");
    // The bound itself is allowed: atroposlib raises only when group_size is greater.
    expect((await run(s, "/rl set group_size 128")).error).toBeUndefined();

    // Set here, batch_size is what the trainer registers too: the same value, no note.
    expect((await run(s, "/rl set batch_size 256")).error).toBeUndefined();
    expect(await fieldOf(s, "batch_size", "Current")).toBe("256");
    expect((await run(s, "/rl set group_size 200")).error).toBeUndefined();
    const lowered = await run(s, "/rl set batch_size 100");
    expect(lowered.error?.message).toContain("group_size 200 is more than the batch size the run will use (100)");
    expect(await fieldOf(s, "batch_size", "Current")).toBe("256");
    const env = await pyyamlEnv({ group_size: 200, batch_size: 256 });
    expect(env).toMatchObject({ group_size: 200, batch_size: 256 });
  });

  it("holds the boundary: group_size = batch_size starts, group_size = batch_size + 1 is refused, either way round", async () => {
    // atroposlib raises only when group_size is greater than the batch size (BaseEnv.get_server_info).
    expect(groupSizeProblem(128, 128)).toBeUndefined();
    expect(groupSizeProblem(129, 128)).toContain("group_size 129 is more than the batch size the run will use (128)");
    const s = services(true);
    await run(s, "/rl select lookup");
    // The trainer's batch size (128): one over it is refused, the bound itself taken.
    expect((await run(s, "/rl set group_size 129")).error?.message).toContain("a group_size of at most 128");
    expect((await run(s, "/rl set group_size 128")).error).toBeUndefined();
    // batch_size set here: group_size one over it is refused, and so is lowering batch_size to one under group_size.
    expect((await run(s, "/rl set batch_size 64")).error?.message).toContain("group_size 128 is more than");
    expect((await run(s, "/rl set group_size 64")).error).toBeUndefined();
    expect((await run(s, "/rl set batch_size 64")).error).toBeUndefined();
    expect((await run(s, "/rl set group_size 65")).error?.message).toContain(
      "group_size 65 is more than the batch size the run will use (64)",
    );
    expect((await run(s, "/rl set batch_size 63")).error?.message).toContain(
      "group_size 64 is more than the batch size the run will use (63)",
    );
    expect(await fieldOf(s, "group_size", "Current")).toBe("64");
    expect(await fieldOf(s, "batch_size", "Current")).toBe("64");
    // What the bot writes at the boundary, read back by PyYAML, is what atroposlib is given.
    expect(await pyyamlEnv({ group_size: 64, batch_size: 64 })).toMatchObject({ group_size: 64, batch_size: 64 });
  });

  it("warns, not refuses, when group_size is only the fallback of a computed default", async () => {
    const s = services(true);
    await run(s, "/rl select lookup");
    const lowered = await run(s, "/rl set batch_size 10");
    expect(lowered.error).toBeUndefined();
    expect(lowered.text).toContain("Warning: group_size 16 is more than the batch size the run will use (10)");
    expect(lowered.text).toContain("fallback of its default");
  });
});

describe("no silent rewriting of a value", () => {
  it("keeps a leading or trailing space, shows it quoted, and the run YAML gives PyYAML the same text", async () => {
    const s = services(false);
    await run(s, "/rl select lookup");
    const set = await run(s, '/rl set note "  two leading"');
    expect(set.title).toBe('note = "  two leading"');
    expect(await fieldOf(s, "note", "Current")).toBe('"  two leading"');
    const trailing = await run(s, "/rl set note 'trailing '");
    expect(trailing.title).toBe('note = "trailing "');
    const values = s.channels.configValues({ platform: "slack", workspace: "T1", channel: "C1" }, "lookup");
    expect(values.note).toBe("trailing ");
    expect(await pyyamlEnv({ a: "  two leading", b: "trailing ", c: " both " })).toMatchObject({
      a: "  two leading",
      b: "trailing ",
      c: " both ",
    });
  });

  it('sets the text "none" in an Optional[str] with quotes; the bare word is None; PyYAML reads back each', async () => {
    const s = services(false);
    await run(s, "/rl select lookup");
    const key = { platform: "slack", workspace: "T1", channel: "C1" } as const;
    for (const [typed, stored, shown] of [
      ['"none"', "none", '"none"'],
      ["'null'", "null", '"null"'],
      ["“None”", "None", '"None"'],
      ["none", null, "none"],
      ["null", null, "none"],
    ] as const) {
      const reply = await run(s, `/rl set title ${typed}`);
      expect(reply.error, typed).toBeUndefined();
      expect(reply.title, typed).toBe(`title = ${shown}`);
      expect(s.channels.configValues(key, "lookup").title, typed).toBe(stored);
    }
    // The LLM's tool call carries the same text.
    expect(
      (await dispatch({ name: "rl_edit_config", args: { field: "title", value: '"none"' } }, slashContext(s))).reply
        .error,
    ).toBeUndefined();
    expect(s.channels.configValues(key, "lookup").title).toBe("none");
    const env = await pyyamlEnv({ t1: "none", t2: "null", t3: "None", t4: "~", t5: null });
    expect(env).toEqual(expect.objectContaining({ t1: "none", t2: "null", t3: "None", t4: "~", t5: null }));
    // /rl set's help says how.
    const help = await run(s, "/rl help set");
    expect(help.text).toContain('the bare word none (or null) means None, and "none" in quotes is the text none');
  });

  it("stores inf as it is (JSON alone would write null)", () => {
    const values = { ratio: Infinity, low: -Infinity, list: [1, Infinity], plain: { a: 1 } };
    const text = stringifyConfigJson(values);
    expect(text).not.toContain("null");
    expect(parseConfigJson(text)).toEqual(values);
  });

  it("takes 1e400 as inf where the float has no bound against it, writes .inf, and refuses it with the reason where one does", async () => {
    const s = services(false);
    await run(s, "/rl select lookup");
    const key = { platform: "slack", workspace: "T1", channel: "C1" } as const;
    const set = await run(s, "/rl set ratio 1e400");
    expect(set.error).toBeUndefined();
    expect(set.title).toBe("ratio = inf");
    expect(s.channels.configValues(key, "lookup").ratio).toBe(Infinity);
    expect(await fieldOf(s, "ratio", "Current")).toBe("inf");
    expect((await run(s, "/rl set ratio -1e400")).title).toBe("ratio = -inf");
    // exec --json writes it as pydantic reads it, "inf", not JSON.stringify's null.
    const viaExec = async (text: string) =>
      (await runCliCommand(s, { text, json: true, channel: "C1" } as BotRequest)).rendered;
    await viaExec("/rl select lookup");
    await viaExec("/rl set ratio -1e400");
    const shown = JSON.parse(await viaExec("/rl config ratio")) as unknown;
    expect(JSON.stringify(shown)).toMatch(/"current_value":"-inf"/);
    const capped = await run(s, "/rl set cap 1e400");
    expect(capped.error?.message).toMatch(/cap must be at most 10; got inf\./);

    const dir = tempDir("rl-shown-inf-");
    const file = writeRunConfig(
      dir,
      "r1",
      buildRunConfig({
        runId: "r1",
        environment: "lookup",
        values: { ratio: Infinity, low: -Infinity },
        locked: { ...SEED_LOCKED_FIELDS, env: {} },
        wandbProject: "p",
      }),
      [],
    );
    expect(readFileSync(file, "utf8")).toContain("ratio: .inf\n");
    const { stdout } = await execFileAsync("python3", [
      "-c",
      "import yaml,sys\nfrom pydantic import BaseModel, Field\nclass M(BaseModel):\n  ratio: float\n  low: float\n" +
        "class Capped(BaseModel):\n  cap: float = Field(le=10.0)\n" +
        "env = yaml.safe_load(open(sys.argv[1]))['env']\nm = M(**env)\nprint(repr(env['ratio']), repr(m.ratio), repr(m.low), M(ratio='1e400', low=0).ratio)\n" +
        "try:\n  Capped(cap=float('inf')); print('accepted')\nexcept Exception: print('refused')",
      file,
    ]);
    expect(stdout.trim().split("\n")).toEqual(["inf inf -inf inf", "refused"]);
  });
});

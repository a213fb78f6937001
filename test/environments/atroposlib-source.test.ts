// BaseEnvConfig's fields read from atroposlib's own source when the training root has it; the bundled copy otherwise.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { ConfigView } from "../../src/environment-ops.ts";
import { BASE_ENV_CONFIG_FIELDS } from "../../src/environments/resolution/base-env-config.ts";
import { createEnvironmentScanner } from "../../src/environments/scanner.ts";
import type { Services } from "../../src/services.ts";
import { delay } from "../../src/training/wait-until.ts";
import { testServices } from "../helpers/test-services.ts";

const ROOT = fileURLToPath(new URL("../fixtures/atroposlib-checkout/", import.meta.url));
const ENVS = `${ROOT}environments`;
const BASE_PY = `${ROOT}atroposlib/envs/base.py`;

const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

describe("atroposlib's own BaseEnvConfig", () => {
  it("is read from the folder RL_ATROPOSLIB_DIR names: its fields, defaults, bounds and descriptions verbatim", async () => {
    const result = await createEnvironmentScanner({ lockedEnv: {}, atroposlib: { dir: `${ROOT}atroposlib` } }).scan(
      ENVS,
    );
    expect(result.baseConfigSource).toBe(BASE_PY);
    const fields = result.environments[0]!.fields;
    expect(fields.map((f) => f.name)).toEqual([
      "group_size",
      "total_steps",
      "eval_handling",
      "reasoning_effort",
      "max_reasoning_tokens",
      "checkout_only_field",
    ]);
    expect(fields.find((f) => f.name === "reasoning_effort")?.description).toBe(
      "Reasoning effort: one of 'none', 'minimal', 'low', 'medium', 'high', 'xhigh'",
    );
    expect(fields.find((f) => f.name === "eval_handling")).toMatchObject({
      default: "STOP_TRAIN",
      fieldType: { kind: "enum", values: ["STOP_TRAIN", "LIMIT_TRAIN", "NONE"] },
    });
    expect(fields.find((f) => f.name === "max_reasoning_tokens")).toMatchObject({ min: 1024, max: 32000 });
  });

  it("falls back to the bundled copy, with a warning, when the folder has no envs/base.py", async () => {
    const result = await createEnvironmentScanner({ lockedEnv: {}, atroposlib: { dir: ENVS } }).scan(ENVS);
    expect(result.baseConfigSource).toBeUndefined();
    expect(result.environments[0]!.fields.map((f) => f.name)).toEqual(BASE_ENV_CONFIG_FIELDS.map((f) => f.name));
    expect(result.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(
        /^the file of BaseEnvConfig could not be read \(ENOENT\); the bundled copy of BaseEnvConfig's fields is used$/,
      ),
    ]);
  });

  it("is found under RL_PYTHON without importing it, and /rl config says which was used", async () => {
    // The training root is on the Python's import path (as an installed atroposlib would be), and its
    // atroposlib/__init__.py is never run: find_spec only locates the package.
    const s = testServices({
      RL_TRAINING_ROOT: ROOT,
      RL_ENVIRONMENTS_DIR: "environments",
      RL_PYTHON: "python3",
      RL_DEFAULT_ROLE: "operate",
    });
    opened.push(s);
    const ctx = {
      channel: { platform: "slack", workspace: "T1", channel: "C1" },
      user: { id: "U1" },
      via: "slash" as const,
      services: s,
    };
    await dispatch({ text: "/rl select riddle" }, ctx);
    // The Python is asked in the background (a scan never waits for it): the scans after its answer use atroposlib.
    // Up to 30 s and more: starting Python on a loaded machine can take seconds.
    let out = await dispatch({ text: "/rl config" }, ctx);
    for (let i = 0; i < 600 && (out.reply.data as ConfigView).base_config_source === "bundled"; i++) {
      await delay(50);
      out = await dispatch({ text: "/rl config" }, ctx);
    }
    expect((out.reply.data as ConfigView).base_config_source).toBe(BASE_PY);
    // The answer names the source and the setting, never a path on the bot's server.
    expect(out.reply.text).toContain("Base fields: read from atroposlib's envs/base.py");
    expect(out.reply.text).not.toContain(BASE_PY);
    const one = await dispatch({ text: "/rl config group_size" }, ctx);
    expect(one.reply.blocks?.[0]).toMatchObject({
      content: "Number of responses grouped together for scoring, as this checkout says",
    });
  });

  it("without atroposlib, /rl config says the bundled copy is used", async () => {
    const s = testServices({
      RL_TRAINING_ROOT: ROOT,
      RL_ENVIRONMENTS_DIR: "environments",
      RL_PYTHON: "/nonexistent/python3",
    });
    opened.push(s);
    const ctx = {
      channel: { platform: "slack", workspace: "T1", channel: "C1" },
      user: { id: "U1" },
      via: "slash" as const,
      services: s,
    };
    await s.env.selectEnvironment(ctx.channel, "riddle");
    // Once the Python has answered (here: it cannot start), the answer stays the bundled copy.
    await delay(500);
    const out = await dispatch({ text: "/rl config" }, ctx);
    expect((out.reply.data as ConfigView).base_config_source).toBe("bundled");
    expect(out.reply.text).toContain("the bot's bundled copy of atroposlib's BaseEnvConfig");
  });
});

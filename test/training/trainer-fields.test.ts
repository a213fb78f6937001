// The trainer's own settings: the tinker: section's fields shown, locked by the locked fields file or changed per channel.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import type { ConfigView } from "../../src/environment-ops.ts";
import { loadLockedFields } from "../../src/locked-fields.ts";
import type { Services } from "../../src/services.ts";
import { pyyamlPlainType } from "../../src/stacks/atropos-tinker/pyyaml-plain-type.ts";
import { buildRunConfig, writeRunConfig } from "../../src/stacks/atropos-tinker/run-config.ts";
import { tempDir, testServices } from "../helpers/test-services.ts";

const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

const channel = { platform: "slack", workspace: "T1", channel: "C1" };
async function setup(lockedTinker?: Record<string, unknown>) {
  const env: Record<string, string> = { RL_DEFAULT_ROLE: "operate" };
  if (lockedTinker) {
    const file = path.join(tempDir("rl-locked-"), "locked.yaml");
    writeFileSync(
      file,
      JSON.stringify({
        env: { total_steps: 5 },
        openai: [{ model_name: "m", base_url: "http://127.0.0.1:8001/v1" }],
        tinker: lockedTinker,
      }),
    );
    env.RL_LOCKED_FIELDS = file;
  }
  const s = testServices(env);
  opened.push(s);
  const ctx: CommandContext = { channel, user: { id: "U1" }, via: "slash", services: s };
  await dispatch({ text: "/rl select arithmetic" }, ctx);
  return { s, ctx };
}

describe("the trainer's fields", () => {
  it("a field the locked fields file sets is shown locked, and /rl set answers about it with how to unlock it", async () => {
    const { ctx } = await setup();
    const out = await dispatch({ text: "/rl set learning_rate 1e-5" }, ctx);
    expect(out.reply.error?.code).toBe("LOCKED_FIELD");
    expect(out.reply.text).toBe(
      "tinker.learning_rate is locked to 0.00004 by the infrastructure settings and cannot be changed. The team can unlock it by removing learning_rate from the tinker: section of the locked fields file (RL_LOCKED_FIELDS).",
    );
    const shown = await dispatch({ text: "/rl config" }, ctx);
    const trainerLocked = shown.reply.fields?.filter((f) => f.group === "Trainer (locked)").map((f) => f.label) ?? [];
    expect(trainerLocked).toEqual(
      expect.arrayContaining(["tinker.lora_rank (int)", "tinker.learning_rate (float)", "tinker.wandb_run_name (str)"]),
    );
    const open = shown.reply.fields?.filter((f) => f.group === "Trainer (tinker:)").map((f) => f.label) ?? [];
    expect(open).toEqual(["tinker.wandb_run_suffix (str)", "tinker.tool_call_parser (str)"]);
  });

  it("an unlocked field is changed per channel by its bare or full name, checked by its type, and goes into the run YAML's tinker: section", async () => {
    const { s, ctx } = await setup({ lora_rank: 8 });
    expect((await dispatch({ text: "/rl set learning_rate 1e-5" }, ctx)).ok).toBe(true);
    expect((await dispatch({ text: "/rl set tinker.tool_call_parser qwen" }, ctx)).ok).toBe(true);
    const bad = await dispatch({ text: "/rl set tinker.save_checkpoint_interval often" }, ctx);
    expect(bad.reply.text).toMatch(/^tinker\.save_checkpoint_interval expects a whole number/);
    expect((await dispatch({ text: "/rl set learning_rate 0" }, ctx)).reply.text).toMatch(/must be more than 0/);
    const bot = await dispatch({ text: "/rl set wandb_group mine" }, ctx);
    expect(bot.reply.text).toBe(
      "tinker.wandb_group is set by the bot for each run (WandB finds the run by it) and cannot be changed.",
    );
    const view = (await dispatch({ text: "/rl config" }, ctx)).reply.data as ConfigView;
    expect(view.configurable_fields.find((f) => f.name === "tinker.learning_rate")).toMatchObject({
      current_value: 1e-5,
      changed: true,
      default: 4e-5,
    });
    expect(view.locked_fields.find((f) => f.name === "tinker.lora_rank")).toMatchObject({ locked_value: 8 });

    const values = s.channels.configValues(channel, "arithmetic");
    const config = buildRunConfig({
      runId: "r1",
      environment: "arithmetic",
      values,
      locked: s.lockedFields,
      wandbProject: "p",
    });
    expect(config.tinker).toMatchObject({
      learning_rate: 1e-5,
      tool_call_parser: "qwen",
      lora_rank: 8,
      wandb_group: "arithmetic-r1",
    });
    expect(Object.keys(config.env).some((k) => k.startsWith("tinker"))).toBe(false);
    const text = readFileSync(writeRunConfig(tempDir(), "r1", config, []), "utf8");
    // Written as a float PyYAML reads as one (with a dot; `1e-5` would be a string to it).
    const written = /\n {2}learning_rate: (\S+)\n/.exec(text)?.[1];
    expect(written && pyyamlPlainType(written)).toBe("float");
    expect((parse(text) as { tinker: Record<string, unknown> }).tinker.learning_rate).toBe(1e-5);

    expect((await dispatch({ text: "/rl reset learning_rate" }, ctx)).ok).toBe(true);
    expect(Object.keys(s.channels.configValues(channel, "arithmetic"))).toEqual(["tinker.tool_call_parser"]);
  });

  it("the openai: servers get server_type sglang, from the locked fields or by default", () => {
    const demo = loadLockedFields(path.resolve("examples/demo-stack/locked-fields.yaml"));
    expect(demo.openai[0]?.server_type).toBe("sglang");
    const withoutType = { ...demo, openai: [{ model_name: "m", base_url: "http://127.0.0.1:8001/v1" }] };
    const config = buildRunConfig({
      runId: "r2",
      environment: "arithmetic",
      values: {},
      locked: withoutType,
      wandbProject: "p",
    });
    expect(config.openai).toEqual([{ model_name: "m", base_url: "http://127.0.0.1:8001/v1", server_type: "sglang" }]);
  });
});

describe("a training root with tinker-atropos's config.py", () => {
  const ROOT = path.resolve("test/fixtures/atroposlib-checkout");

  it("has its TinkerConfig fields read from the file: its own descriptions, bounds and extra fields", async () => {
    const s = testServices({
      RL_TRAINING_ROOT: ROOT,
      RL_ENVIRONMENTS_DIR: "environments",
      RL_PYTHON: "/nonexistent/python3",
      RL_DEFAULT_ROLE: "operate",
    });
    opened.push(s);
    const ctx: CommandContext = { channel, user: { id: "U1" }, via: "slash", services: s };
    await dispatch({ text: "/rl select riddle" }, ctx);
    const view = (await dispatch({ text: "/rl config" }, ctx)).reply.data as ConfigView;
    const all = [...view.configurable_fields, ...view.locked_fields];
    expect(all.find((f) => f.name === "tinker.lora_rank")).toMatchObject({
      description: "LoRA rank, as this checkout describes it",
      locked: true,
      locked_value: 32,
    });
    expect(all.find((f) => f.name === "tinker.wandb_run_suffix")).toMatchObject({
      default_expr: "_suffix()",
      locked: false,
    });
    expect(all.find((f) => f.name === "tinker.num_substeps")).toMatchObject({ default: 1, locked: false });
    expect((await dispatch({ text: "/rl set num_substeps 9" }, ctx)).reply.text).toBe(
      "tinker.num_substeps must be at most 8; got 9.",
    );
    expect((await dispatch({ text: "/rl set num_substeps 4" }, ctx)).ok).toBe(true);
  });
});

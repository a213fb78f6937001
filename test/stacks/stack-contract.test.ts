// The contract every training stack keeps, run over both: processes, stop order, config writing, plans, progress.
import { readFileSync, statSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { RunRow } from "../../db/runs.ts";
import { COOKBOOK_DEMO_ROOT } from "../../src/config.ts";
import { checkSpawnPlan } from "../../src/process/check-spawn-plan.ts";
import type { Services } from "../../src/services.ts";
import type { StackId, TrainingStack } from "../../src/stacks/training-stack.ts";
import { testServices } from "../helpers/test-services.ts";
import { spawnTracked } from "../helpers/children.ts";

const TINKER_KEY = "tk-contract-sentinel-0001";
const opened: Services[] = [];
afterEach(async () => {
  for (const services of opened.splice(0)) await services.close();
});

function stackOn(id: StackId): { services: Services; stack: TrainingStack } {
  const services = testServices({ RL_STACK: id, TINKER_API_KEY: TINKER_KEY });
  opened.push(services);
  return { services, stack: services.manager.currentStack };
}

/** A run row as the run manager creates it, for the stack's own unit of training. */
function runOf(services: Services, stack: TrainingStack, unit: string, values: Record<string, unknown>): RunRow {
  const id = `c${stack.id === "tinker-cookbook" ? "b" : "a"}0${Math.floor(Math.random() * 1e6)}`;
  const patch = stack.prepare(id, unit, values);
  services.runs.insert({
    id,
    channel: { platform: "console", workspace: "local", channel: "console" },
    environment: unit,
    config: values,
    status: "queued",
    createdBy: "U1",
    stack: stack.id,
  });
  return services.runs.update(id, patch);
}

const UNITS: Record<"atropos-tinker" | "tinker-cookbook", { unit: string; values: Record<string, unknown> }> = {
  "atropos-tinker": { unit: "arithmetic", values: { seed: 7 } },
  "tinker-cookbook": { unit: "math_rl.train", values: { seed: 7, demo_step_seconds: 0.05 } },
};

describe.each(["atropos-tinker", "tinker-cookbook"] as const)("the %s stack", (id) => {
  it("names its processes once each, a main one that cannot finish first, and stops every one of them", () => {
    const { stack } = stackOn(id);
    const names = stack.components.map((c) => c.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain(stack.main);
    expect(stack.components.find((c) => c.name === stack.main)?.mayFinishFirst).toBeFalsy();
    expect([...stack.stopOrder].sort()).toEqual([...names].sort());
    for (const c of stack.components) expect(c.help.settings.length).toBeGreaterThan(0);
  });

  it("writes a run's config owner-only with no key in it, and plans startable commands that get the key only through their environment", async () => {
    const { services, stack } = stackOn(id);
    const { unit, values } = UNITS[id];
    const run = runOf(services, stack, unit, values);
    expect(run.configPath).toBeDefined();
    expect(statSync(run.configPath!).mode & 0o777).toBe(0o600);
    expect(readFileSync(run.configPath!, "utf8")).not.toContain(TINKER_KEY);
    expect(run.wandbProject).toBe(services.config.wandb.project);
    for (const c of stack.components) {
      const plan = await stack.plan(run, c.name);
      expect(plan.component).toBe(c.name);
      expect(() => checkSpawnPlan(plan, c.help)).not.toThrow();
      expect([plan.command, ...plan.args].join(" ")).not.toContain(TINKER_KEY);
    }
    const main = await stack.plan(run, stack.main);
    expect(main.env.TINKER_API_KEY).toBe(TINKER_KEY);
  });

  it("refuses a config value holding one of the bot's keys, naming how keys reach the trainer", () => {
    const { services, stack } = stackOn(id);
    const { unit } = UNITS[id];
    expect(() => runOf(services, stack, unit, { seed: `x${TINKER_KEY}` })).toThrow(/through its environment/);
  });

  it("reads no progress from a run that has written nothing", async () => {
    const { services, stack } = stackOn(id);
    const { unit, values } = UNITS[id];
    const progress = await stack.readProgress(runOf(services, stack, unit, values));
    expect(progress.step).toBeUndefined();
    expect(progress.rewardMean).toBeUndefined();
    expect(progress).toMatchObject({ completed: false, stepErrors: [], rewardHistory: [] });
  });
});

describe("the tinker-cookbook stack's arguments", () => {
  it("are read back by chz's rules (the miniature's chz) as the values the channel set", async () => {
    const { services, stack } = stackOn("tinker-cookbook");
    const values = {
      learning_rate: 2e-5,
      seed: 3,
      compute_post_kl: true,
      renderer_name: null,
      model_name: "Qwen/Qwen3-8B",
      demo_fault: "error_in_step:2",
    };
    const run = runOf(services, stack, "math_rl.train", values);
    const plan = await stack.plan(run, stack.main);
    expect(plan.args.slice(0, 2)).toEqual(["-m", "tinker_cookbook.recipes.math_rl.train"]);
    const script = [
      "import json, sys, chz",
      "from tinker_cookbook.recipes.math_rl.train import CLIConfig",
      "c = chz.entrypoint(CLIConfig, argv=sys.argv[1:])",
      "print(json.dumps({k: getattr(c, k) for k in sys.stdin.read().split()}))",
    ].join("\n");
    const keys = [...Object.keys(values), "log_path", "behavior_if_log_dir_exists", "wandb_project", "wandb_name"];
    const read = await spawnTracked("python3", ["-S", "-c", script, ...plan.args.slice(2)], {
      cwd: COOKBOOK_DEMO_ROOT,
      input: keys.join(" "),
    });
    expect(JSON.parse(read.stdout)).toEqual({
      ...values,
      log_path: `${services.config.dataDir}/runs/${run.id}`,
      behavior_if_log_dir_exists: "resume",
      wandb_project: "tinker-cookbook",
      wandb_name: `math_rl.train-${run.id}`,
    });
  });
});

describe("resuming on atropos-tinker", () => {
  it("is refused with the reason and the rerun to use instead", async () => {
    const { services, stack } = stackOn("atropos-tinker");
    const run = runOf(services, stack, "arithmetic", {});
    services.runs.update(run.id, { status: "stopped" });
    await expect(services.manager.resume(run.id, "alice")).rejects.toThrow(
      `Run ${run.id} cannot be resumed: tinker-atropos's trainer always starts at step 0. /rl rerun ${run.id} runs it again from step 0.`,
    );
    expect(services.runs.get(run.id)).toMatchObject({ status: "stopped", attempt: 0 });
  });
});

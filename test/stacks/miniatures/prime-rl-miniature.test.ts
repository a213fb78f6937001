// The prime-rl miniature as real python3 processes: `rl @ rl.toml --a.b value`, metrics.jsonl, checkpoints only with
// --ckpt, --resume / --resume.step / --resume.dir, logs/attempt_<n>/, rollouts, pydantic_config's errors, SIGTERM;
// and its pydantic-shaped config classes run by the real pydantic (2.13) against what the miniature resolved.
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { waitFor } from "../../demo-stack/demo-stack-harness.ts";
import { processesMentioning } from "../../helpers/cookbook.ts";
import {
  EXAMPLES_DIR,
  expectExit,
  mean,
  oracleMissing,
  pythonJson,
  range,
  readJson,
  readJsonl,
  signalAndWait,
  useMiniature,
} from "./miniature-kit.ts";

const PRIME_DIR = path.join(EXAMPLES_DIR, "prime-rl");
const PYTHONPATH = ["src", "packages/prime-rl-configs/src"].map((p) => path.join(PRIME_DIR, p)).join(":");
const TOML = path.join(PRIME_DIR, "configs/toy/rl.toml");
const noPydantic = oracleMissing("python3", "import pydantic");

interface Metric {
  step: number;
  [key: string]: number;
}

const mini = useMiniature("prime-rl");
const env = (extra: Record<string, string> = {}) => ({ PYTHONPATH, ...extra });
const rl = (args: string[]) => ["-m", "prime_rl.entrypoints.rl", "@", TOML, "--output-dir", mini.dir(), ...args];
const runDir = (name: string) => path.join(mini.dir(), name);
const metrics = (name: string) => readJsonl<Metric>(path.join(runDir(name), "metrics.jsonl"));
const rewardRecords = (name: string) => metrics(name).filter((m) => "train/agg/all/reward/mean" in m);
const ckptSteps = (name: string) => {
  const dir = path.join(runDir(name), "checkpoints");
  return existsSync(dir)
    ? readdirSync(dir)
        .map((n) => Number(n.replace("step_", "")))
        .sort((a, b) => a - b)
    : [];
};
/** The last record of each step, per component: what a reader that keeps the newest record sees. */
const lastPerStep = (records: Metric[]) => [...new Map(records.map((r) => [r.step, r])).keys()].sort((a, b) => a - b);

describe("prime-rl miniature", () => {
  it("learns; writes metrics.jsonl (orchestrator and trainer records), rollouts, configs and logs/attempt_1, no checkpoints without --ckpt", async () => {
    const proc = await mini.run("train", rl(["--run.name", "a"]), env());
    expectExit(proc, 0, mini.logs);
    const all = metrics("a");
    expect(all.map((m) => m.step)).toEqual(range(0, 40).flatMap((s) => [s, s]));
    expect(Object.keys(all[0] ?? {}).slice(0, 3)).toEqual(["step", "time", "train/agg/all/reward/mean"]);
    expect(all[1]).toHaveProperty(["loss/mean"]);
    const rewards = rewardRecords("a").map((m) => m["train/agg/all/reward/mean"] ?? Number.NaN);
    expect(mean(rewards.slice(-10))).toBeGreaterThan(mean(rewards.slice(0, 10)) + 0.4);
    expect(existsSync(path.join(runDir("a"), "checkpoints"))).toBe(false);
    expect(readlinkSync(path.join(runDir("a"), "logs/latest"))).toBe("attempt_1");
    expect(readFileSync(path.join(runDir("a"), "logs/attempt_1/orchestrator.log"), "utf8")).toContain("Step 39 |");
    const traces = readJsonl<Record<string, unknown>>(path.join(runDir("a"), "rollouts/step_5/train/all/traces.jsonl"));
    expect(traces).toHaveLength(64);
    expect(traces[0]).toMatchObject({ step: 5, task: "toy-arithmetic" });
    expect(readdirSync(path.join(runDir("a"), "configs")).sort()).toEqual([
      "inference.json",
      "orchestrator.json",
      "trainer.json",
    ]);
    expect(proc.stdout()).toContain("Training finished!");
  });

  it("refuses to reuse a run directory without --resume or --clean", async () => {
    expectExit(await mini.run("first", rl(["--run.name", "a", "--max-steps", "2"]), env()), 0, mini.logs);
    const again = await mini.run("again", rl(["--run.name", "a", "--max-steps", "2"]), env());
    expectExit(again, 1, mini.logs);
    expect(again.stderr()).toContain(
      `FileExistsError: Run directory '${runDir("a")}' already contains artifacts from a previous run.`,
    );
    expectExit(await mini.run("clean", rl(["--run.name", "a", "--max-steps", "2", "--clean"]), env()), 0, mini.logs);
  });

  it("stops on SIGTERM as prime-rl's launcher does, then --resume continues from the latest step_N in a new attempt", async () => {
    const args = rl(["--run.name", "r", "--ckpt.interval", "10"]);
    const first = mini.start("first", args, env({ RL_DEMO_STEP_SECONDS: "0.1" }));
    await waitFor(() => ckptSteps("r").includes(20), "checkpoints/step_20", mini.logs);
    expect(await signalAndWait(first, "SIGTERM", mini.logs)).toEqual({ code: 1, signal: null });
    expect(first.stdout()).toContain("Received SIGTERM, terminating all processes...");
    // The handler terminated the training process before exiting (the test's own cleanup would kill the group).
    expect(processesMentioning(path.join(runDir("r"), "configs"))).toEqual([]);
    const latest = ckptSteps("r").at(-1) ?? 0;
    const logged = rewardRecords("r").length;

    const second = await mini.run("resume", [...args, "--resume"], env());
    expectExit(second, 0, mini.logs);
    expect(second.stdout()).toContain(`Resuming from step ${latest}, cleaning future rollouts and broadcasts`);
    expect(readlinkSync(path.join(runDir("r"), "logs/latest"))).toBe("attempt_2");
    const records = rewardRecords("r");
    // The new attempt appends from the checkpoint's step on: steps the first attempt logged after it appear twice.
    expect(records.slice(logged).map((m) => m.step)).toEqual(range(latest, 40));
    expect(lastPerStep(records)).toEqual(range(0, 40));
    expect(ckptSteps("r")).toEqual([10, 20, 30, 40]);
  });

  it("resumes from --resume.step N, and forks another run's checkpoint with --resume.dir", async () => {
    expectExit(
      await mini.run("parent", rl(["--run.name", "p", "--ckpt.interval", "10", "--max-steps", "30"]), env()),
      0,
      mini.logs,
    );
    const again = await mini.run(
      "step",
      rl(["--run.name", "p", "--ckpt.interval", "10", "--resume.step", "10"]),
      env(),
    );
    expectExit(again, 0, mini.logs);
    expect(
      rewardRecords("p")
        .slice(30)
        .map((m) => m.step),
    ).toEqual(range(10, 40));
    const fork = await mini.run(
      "fork",
      rl(["--run.name", "f", "--resume.dir", path.join(runDir("p"), "checkpoints/step_20"), "--max-steps", "25"]),
      env(),
    );
    expectExit(fork, 0, mini.logs);
    expect(rewardRecords("f").map((m) => m.step)).toEqual(range(20, 25));
  });

  it("with --resume but no run name resumes nothing: a fresh run directory, from scratch", async () => {
    const proc = await mini.run("no-name", rl(["--resume", "--max-steps", "3"]), env());
    expectExit(proc, 0, mini.logs);
    expect(proc.stdout()).toMatch(
      /No checkpoints found in .*toy-arithmetic--policy-0--[0-9a-f]{8}\/checkpoints\. Starting from scratch\./,
    );
  });

  it("fails bad overrides in pydantic_config's box, exit 1", async () => {
    const snake = await mini.run("snake", rl(["--max_steps", "5"]), env());
    expectExit(snake, 1, mini.logs);
    expect(snake.stderr()).toMatch(
      /^╭─ Config file error ─+╮\n│ Unrecognized command-line option\(s\): --max_steps \(did you mean --max-steps/,
    );
    const bad = await mini.run("bad", rl(["--trainer.optim.lr", "abc"]), env());
    expectExit(bad, 1, mini.logs);
    expect(bad.stderr()).toContain("│ --trainer.optim.lr ");
    expect(bad.stderr()).toContain("│ Input should be a valid number, unable to parse string as a number (got 'abc') ");
    const group = await mini.run("group", rl(["--trainer.optim", "3"]), env());
    expectExit(group, 1, mini.logs);
    expect(group.stderr()).toContain("--trainer.optim is a config group, not a leaf field.");
  });

  it("collapses its reward with RL_DEMO_FAULT=collapse", async () => {
    expectExit(await mini.run("collapse", rl(["--run.name", "c"]), env({ RL_DEMO_FAULT: "collapse" })), 0, mini.logs);
    const rewards = rewardRecords("c").map((m) => m["train/agg/all/reward/mean"] ?? Number.NaN);
    expect(mean(rewards.slice(15, 20))).toBeGreaterThan(0.6);
    expect(mean(rewards.slice(-5))).toBeLessThan(0.3);
  });

  describe.skipIf(noPydantic !== undefined)(`against the real pydantic${noPydantic ? ` (${noPydantic})` : ""}`, () => {
    const pydanticPath = path.join(PRIME_DIR, "packages/prime-rl-configs/src");

    it("its config classes give, from the same TOML and flags, the sub-configs the miniature wrote", async () => {
      const flags = [
        "--run.name",
        "o",
        "--ckpt.interval",
        "5",
        "--orchestrator.group-size",
        "4",
        "--monitors.wandb.project",
        "x",
      ];
      expectExit(await mini.run("dry", rl([...flags, "--dry-run"]), env()), 0, mini.logs);
      const script =
        "import json, sys, tomllib\nfrom prime_rl.configs.rl import RLConfig\nargs = json.load(sys.stdin)\n" +
        "data = tomllib.load(open(args['toml'], 'rb'))\n" +
        "data.update(output_dir=args['out'], run={'name': 'o'}, ckpt={'interval': '5'}, monitors={'wandb': {'project': 'x'}})\n" +
        "data['orchestrator']['group_size'] = '4'\n" +
        "cfg = RLConfig.model_validate(data).model_dump(mode='json')\n" +
        "print(json.dumps({k: cfg[k] for k in ('trainer', 'orchestrator', 'inference')}))";
      const real = pythonJson<Record<string, unknown>>(
        "python3",
        script,
        JSON.stringify({ toml: TOML, out: mini.dir() }),
        pydanticPath,
      );
      for (const part of ["trainer", "orchestrator", "inference"])
        expect(readJson(path.join(runDir("o"), "configs", `${part}.json`)), part).toEqual(real[part]);
    });

    it("its schema reader refuses what pydantic refuses, with pydantic's messages", () => {
      const cases = [
        { trainer: { optim: { lr: "abc" } }, orchestrator: {} },
        { trainer: { optim: { lr: 0 } }, orchestrator: { batch_size: 2.5 }, resume: { step: 0 } },
        { trainer: {}, orchestrator: { bogus: 1, train: { source: [{ env: { taskset: { id: 3 } } }] } } },
        { orchestrator: {}, deployment: { type: "multi" }, clean: "maybe" },
      ];
      const real = pythonJson(
        "python3",
        "import json, sys\nfrom pydantic import ValidationError\nfrom prime_rl.configs.rl import RLConfig\nout = []\n" +
          "for case in json.load(sys.stdin):\n    try:\n        RLConfig.model_validate(case)\n        out.append([])\n" +
          "    except ValidationError as e:\n        out.append([[list(x['loc']), x['msg']] for x in e.errors()])\n" +
          "print(json.dumps(out))",
        JSON.stringify(cases),
        pydanticPath,
      );
      const ours = pythonJson(
        "python3",
        "import json, sys\nsys.path[:0] = ['src', 'packages/prime-rl-configs/src']\nfrom prime_rl.utils.schema import read_schema\n" +
          "schema = read_schema('packages/prime-rl-configs/src/prime_rl/configs')\n" +
          "print(json.dumps([[[list(loc), msg] for loc, msg, _ in schema.validate('RLConfig', c, ())[1]] for c in json.load(sys.stdin)]))",
        JSON.stringify(cases),
        PRIME_DIR,
      );
      expect(ours).toEqual(real);
    });
  });
});

// The verl miniature as real python3 processes: the file logger (truncated at every start), global_step_N and
// latest_checkpointed_iteration.txt, resume modes, rollout dumps, Hydra's override errors, and its config and
// overrides checked against the real OmegaConf (Debian's python3-omegaconf).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { waitFor } from "../../demo-stack/demo-stack-harness.ts";
import {
  EXAMPLES_DIR,
  expectExit,
  mean,
  oracleMissing,
  pythonJson,
  range,
  readJsonl,
  signalAndWait,
  useMiniature,
} from "./miniature-kit.ts";

const VERL_DIR = path.join(EXAMPLES_DIR, "verl");
const CONFIG_DIR = path.join(VERL_DIR, "verl/trainer/config");
// The overrides of examples/grpo_trainer/run_toy_grpo.sh that do not name a folder.
const GRPO = [
  "algorithm.adv_estimator=grpo",
  "data.train_batch_size=32",
  "actor_rollout_ref.actor.optim.lr=1e-6",
  "actor_rollout_ref.rollout.name=vllm",
  "actor_rollout_ref.rollout.n=8",
  'trainer.logger=["console","file"]',
  "trainer.total_training_steps=40",
  "trainer.save_freq=10",
  "trainer.test_freq=10",
];
// Debian's python3 carries python3-omegaconf (REFERENCE.md section 12); the pyenv python3 does not.
const OMEGACONF_PYTHON = "/usr/bin/python3";
const noOmegaConf = oracleMissing(OMEGACONF_PYTHON, "import omegaconf");

interface LogLine {
  step: number;
  data: Record<string, number>;
}

const mini = useMiniature("verl");

/** Overrides that keep every file of a run in `dir` (checkpoints, rollouts, Hydra's folder). */
const folders = (dir: string) => [
  `trainer.default_local_dir=${dir}/ckpt`,
  `trainer.rollout_data_dir=${dir}/rollouts`,
  `hydra.run.dir=${dir}/hydra`,
];
const mainPpo = (args: string[]) => ["-m", "verl.trainer.main_ppo", ...args];
const checkpointSteps = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => /^global_step_\d+$/.test(n))
        .map((n) => Number(n.slice("global_step_".length)))
        .sort((a, b) => a - b)
    : [];
const trainSteps = (lines: LogLine[]) => lines.filter((l) => "training/global_step" in l.data).map((l) => l.step);

describe("verl miniature", () => {
  it("learns, writing the file logger's JSON lines, global_step_N, the tracker file and rollout dumps", async () => {
    const dir = mini.dir();
    const log = path.join(dir, "metrics.jsonl");
    const proc = await mini.run("train", mainPpo([...GRPO, ...folders(dir)]), { VERL_FILE_LOGGER_PATH: log });
    expectExit(proc, 0, mini.logs);
    const text = readFileSync(log, "utf8");
    expect(text.startsWith('{"step":0,"data":{"val-core/toy_arithmetic/reward/mean@1":')).toBe(true);
    const lines = readJsonl<LogLine>(log);
    expect(lines.map((l) => l.step)).toEqual(range(0, 41));
    const scores = lines.slice(1).map((l) => l.data["critic/score/mean"] ?? Number.NaN);
    expect(mean(scores.slice(-10))).toBeGreaterThan(mean(scores.slice(0, 10)) + 0.4);
    expect(lines[10]?.data).toHaveProperty(["val-core/toy_arithmetic/reward/mean@1"]);
    expect(checkpointSteps(path.join(dir, "ckpt"))).toEqual([10, 20, 30, 40]);
    expect(readFileSync(path.join(dir, "ckpt/latest_checkpointed_iteration.txt"), "utf8")).toBe("40");
    const rollouts = readJsonl<Record<string, unknown>>(path.join(dir, "rollouts/7.jsonl"));
    expect(rollouts).toHaveLength(32 * 8);
    expect(Object.keys(rollouts[0] ?? {})).toEqual(["input", "output", "gts", "score", "step", "uid"]);
    expect(rollouts[0]).toMatchObject({ step: 7 });
    expect(proc.stdout()).toMatch(/^step:1 - actor\/entropy:/m);
    expect(existsSync(path.join(dir, "hydra/.hydra/config.yaml"))).toBe(true);
  });

  it("resumes with resume_mode auto; the logger truncates its file, so each attempt needs its own", async () => {
    const dir = mini.dir();
    const args = mainPpo([...GRPO, ...folders(dir)]);
    const firstLog = path.join(dir, "attempt1.jsonl");
    const first = mini.start("first", args, { VERL_FILE_LOGGER_PATH: firstLog, RL_DEMO_STEP_SECONDS: "0.1" });
    // Stopped once step 20's metrics are out: verl saves a step's checkpoint before it logs the step, so a stop
    // between the two would resume after a step never logged (the trap the docs name).
    await waitFor(() => trainSteps(readJsonl<LogLine>(firstLog)).includes(20), "step 20 in the log", mini.logs);
    expect(await signalAndWait(first, "SIGTERM", mini.logs)).toEqual({ code: null, signal: "SIGTERM" });
    const saved = Number(readFileSync(path.join(dir, "ckpt/latest_checkpointed_iteration.txt"), "utf8"));

    const secondLog = path.join(dir, "attempt2.jsonl");
    const second = await mini.run("second", args, { VERL_FILE_LOGGER_PATH: secondLog });
    expectExit(second, 0, mini.logs);
    expect(second.stdout()).toContain(`setting global step to ${saved}`);
    const resumed = readJsonl<LogLine>(secondLog);
    // Validation first, logged at the resumed step, then the steps after it.
    expect(resumed.map((l) => l.step)).toEqual([saved, ...range(saved + 1, 41)]);
    const kept = trainSteps(readJsonl<LogLine>(firstLog)).filter((s) => s <= saved);
    expect([...kept, ...trainSteps(resumed)]).toEqual(range(1, 41));

    // The same path again: the file logger opens it with "wb", and the steps it held are gone.
    const third = await mini.run("third", mainPpo([...GRPO, ...folders(dir), "trainer.total_training_steps=42"]), {
      VERL_FILE_LOGGER_PATH: secondLog,
    });
    expectExit(third, 0, mini.logs);
    expect(readJsonl<LogLine>(secondLog).map((l) => l.step)).toEqual([40, 41, 42]);
  });

  it("forks with resume_mode resume_path, and refuses a path without global_step_", async () => {
    const parent = path.join(mini.dir(), "parent");
    expectExit(
      await mini.run("parent", mainPpo([...GRPO, ...folders(parent), "trainer.total_training_steps=20"])),
      0,
      mini.logs,
    );
    const fork = path.join(mini.dir(), "fork");
    const log = path.join(mini.dir(), "fork.jsonl");
    const forked = await mini.run(
      "fork",
      mainPpo([
        ...GRPO,
        ...folders(fork),
        "trainer.resume_mode=resume_path",
        `trainer.resume_from_path=${parent}/ckpt/global_step_10`,
      ]),
      { VERL_FILE_LOGGER_PATH: log },
    );
    expectExit(forked, 0, mini.logs);
    expect(trainSteps(readJsonl<LogLine>(log))).toEqual(range(11, 41));
    const bad = await mini.run(
      "bad",
      mainPpo([
        ...GRPO,
        ...folders(fork),
        "trainer.resume_mode=resume_path",
        `trainer.resume_from_path=${parent}/ckpt`,
      ]),
    );
    expectExit(bad, 1, mini.logs);
    expect(bad.stderr()).toContain("AssertionError: resume ckpt must specify the global_steps");
  });

  it("fails bad overrides with Hydra's messages, exit 1", async () => {
    const unknown = await mini.run("unknown", mainPpo(["trainer.bogus=1"]));
    expectExit(unknown, 1, mini.logs);
    expect(unknown.stderr()).toBe(
      "Could not override 'trainer.bogus'.\nTo append to your config use +trainer.bogus=1\n" +
        "Key 'bogus' is not in struct\n    full_key: trainer.bogus\n    object_type=dict\n\n" +
        "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\n",
    );
    const append = await mini.run("append", mainPpo(["+trainer.total_epochs=3"]));
    expectExit(append, 1, mini.logs);
    expect(append.stderr()).toContain("Could not append to config. An item is already at 'trainer.total_epochs'.");
    const noEqual = await mini.run("no-equal", mainPpo(["trainer.total_epochs"]));
    expectExit(noEqual, 1, mini.logs);
    expect(noEqual.stderr()).toContain("Error parsing override 'trainer.total_epochs'\nmissing EQUAL at '<EOF>'");
    const noRollout = await mini.run("no-rollout", mainPpo([`hydra.run.dir=${mini.dir()}/h`]));
    expectExit(noRollout, 1, mini.logs);
    expect(noRollout.stderr()).toContain("Missing mandatory value: actor_rollout_ref.rollout.name");
    expect(noRollout.stderr()).toContain("Error executing job with overrides:");
    // VERL_FILE_LOGGER_PATH's folder is not created: the run fails when the logger opens its file.
    const noFolder = await mini.run("no-folder", mainPpo([...GRPO, ...folders(mini.dir())]), {
      VERL_FILE_LOGGER_PATH: path.join(mini.dir(), "missing/metrics.jsonl"),
    });
    expectExit(noFolder, 1, mini.logs);
    expect(noFolder.stderr()).toContain("FileNotFoundError: [Errno 2] No such file or directory:");
  });

  it("collapses its reward with RL_DEMO_FAULT=collapse", async () => {
    const dir = mini.dir();
    const log = path.join(dir, "m.jsonl");
    expectExit(
      await mini.run("collapse", mainPpo([...GRPO, ...folders(dir)]), {
        VERL_FILE_LOGGER_PATH: log,
        RL_DEMO_FAULT: "collapse",
      }),
      0,
      mini.logs,
    );
    const scores = readJsonl<LogLine>(log)
      .slice(1)
      .map((l) => l.data["critic/score/mean"] ?? Number.NaN);
    expect(mean(scores.slice(15, 20))).toBeGreaterThan(0.6);
    expect(mean(scores.slice(-5))).toBeLessThan(0.3);
  });

  describe.skipIf(noOmegaConf !== undefined)(
    `against the real OmegaConf${noOmegaConf ? ` (${noOmegaConf})` : ""}`,
    () => {
      const yamlFiles = () =>
        readdirSync(CONFIG_DIR, { recursive: true, encoding: "utf8" })
          .filter((f) => f.endsWith(".yaml"))
          .map((f) => path.join(CONFIG_DIR, f));

      it("reads every config file as OmegaConf.load does", () => {
        const script =
          "import json, sys\nfrom omegaconf import OmegaConf\n" +
          "print(json.dumps([OmegaConf.to_container(OmegaConf.load(p)) for p in json.load(sys.stdin)]))";
        const files = JSON.stringify(yamlFiles());
        const real = pythonJson(OMEGACONF_PYTHON, script, files);
        const ours = pythonJson("python3", "import sys\nsys.path.insert(0, '.')\n" + script, files, VERL_DIR);
        expect(ours).toEqual(real);
      });

      it("resolves the composed config with overrides as OmegaConf does, and refuses an unknown key as struct mode does", () => {
        const compose =
          "import json, sys\nsys.path.insert(0, '.')\nfrom hydra import compose\nfrom omegaconf import OmegaConf\n" +
          "cfg = compose('verl/trainer/config', 'ppo_trainer', json.load(sys.stdin))[0]\n" +
          "print(json.dumps({'raw': cfg, 'resolved': OmegaConf.to_container(OmegaConf.create(cfg), resolve=True)}))";
        const ours = pythonJson<{ raw: unknown; resolved: unknown }>(
          "python3",
          compose,
          JSON.stringify([...GRPO, "trainer.project_name=p1"]),
          VERL_DIR,
        );
        const resolve =
          "import json, sys\nfrom omegaconf import OmegaConf\n" +
          "print(json.dumps(OmegaConf.to_container(OmegaConf.create(json.load(sys.stdin)), resolve=True)))";
        expect(ours.resolved).toEqual(pythonJson(OMEGACONF_PYTHON, resolve, JSON.stringify(ours.raw)));
        expect(ours.resolved).toMatchObject({
          trainer: { default_local_dir: "checkpoints/p1/gsm8k" },
          actor_rollout_ref: { actor: { rollout_n: 8 } },
        });

        // Hydra applies an override with OmegaConf.update on the struct config: the real one on our composition.
        const update =
          "import json, sys\nfrom omegaconf import OmegaConf\nargs = json.load(sys.stdin)\n" +
          "cfg = OmegaConf.create(args['raw'])\nOmegaConf.set_struct(cfg, True)\nout = []\n" +
          "for key, value in args['updates']:\n" +
          "    try:\n        OmegaConf.update(cfg, key, value, merge=True)\n        out.append('ok')\n" +
          "    except Exception as e:\n        out.append(str(e).splitlines()[0])\n" +
          "print(json.dumps(out))";
        const base = pythonJson<{ raw: unknown }>("python3", compose, "[]", VERL_DIR).raw;
        const updates = [
          ["trainer.total_training_steps", 5],
          ["actor_rollout_ref.rollout.n", 8],
          ["trainer.bogus", 1],
        ];
        expect(pythonJson(OMEGACONF_PYTHON, update, JSON.stringify({ raw: base, updates }))).toEqual([
          "ok",
          "ok",
          "Key 'bogus' is not in struct",
        ]);
      });

      it("records the composed config in Hydra's .hydra/config.yaml, as OmegaConf reads it", async () => {
        const dir = mini.dir();
        const overrides = [...GRPO, "trainer.total_training_steps=1", ...folders(dir)];
        expectExit(await mini.run("one-step", mainPpo(overrides)), 0, mini.logs);
        const load =
          "import json, sys\nfrom omegaconf import OmegaConf\n" +
          "print(json.dumps([OmegaConf.to_container(OmegaConf.load(p)) for p in json.load(sys.stdin)]))";
        const hydraDir = path.join(dir, "hydra/.hydra");
        const [config, recorded] = pythonJson<unknown[]>(
          OMEGACONF_PYTHON,
          load,
          JSON.stringify([path.join(hydraDir, "config.yaml"), path.join(hydraDir, "overrides.yaml")]),
        );
        const compose =
          "import json, sys\nsys.path.insert(0, '.')\nfrom hydra import compose\n" +
          "print(json.dumps(compose('verl/trainer/config', 'ppo_trainer', json.load(sys.stdin))[0]))";
        expect(config).toEqual(pythonJson("python3", compose, JSON.stringify(overrides), VERL_DIR));
        expect(recorded).toEqual(overrides.filter((o) => !o.startsWith("hydra.")));
      });

      it("keeps _generated_ppo_trainer.yaml equal to the composition, as read by OmegaConf", () => {
        const generated = path.join(CONFIG_DIR, "_generated_ppo_trainer.yaml");
        const load =
          "import json, sys\nfrom omegaconf import OmegaConf\nprint(json.dumps(OmegaConf.to_container(OmegaConf.load(sys.stdin.read()))))";
        const compose =
          "import json, sys\nsys.path.insert(0, '.')\nfrom hydra import compose\nprint(json.dumps(compose('verl/trainer/config', 'ppo_trainer', [])[0]))";
        expect(pythonJson(OMEGACONF_PYTHON, load, generated)).toEqual(pythonJson("python3", compose, "", VERL_DIR));
      });
    },
  );
});

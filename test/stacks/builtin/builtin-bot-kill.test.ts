// Each built-in stack's run outlives its bot: the real bot process (its console fed on stdin) is SIGKILLed while the
// miniature trains, and the bot started again on the same data folder re-attaches to the same trainer process; the run
// completes as one run (one attempt, the same pid), every step logged once.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { processStartTime } from "../../../src/process/process-info.ts";
import { botsPerTest, readDb, waitFor } from "../../helpers/bot-process.ts";
import { tempDir } from "../../helpers/test-services.ts";
import { readJsonl } from "../miniatures/miniature-kit.ts";

const bots = botsPerTest();
const STEPS = 20;

interface BuiltinCase {
  stack: string;
  entry: string;
  settings: Array<[string, string | number]>;
  /** A checkpoint folder's name in the run's folder tree. */
  checkpoints: string;
  /** The steps the trainer logged, in the order written, from its files in the run's folder. */
  logged(runDir: string): number[];
}

const CASES: BuiltinCase[] = [
  {
    stack: "verl",
    entry: "ppo_trainer",
    settings: [
      ["actor_rollout_ref.rollout.name", "vllm"],
      ["algorithm.adv_estimator", "grpo"],
      ["trainer.val_before_train", "false"],
      ["trainer.total_training_steps", STEPS],
      ["trainer.save_freq", 4],
    ],
    checkpoints: "checkpoints",
    logged: (dir) =>
      readJsonl<{ step: number; data: object }>(path.join(dir, "metrics.0.jsonl"))
        .filter((l) => "training/global_step" in l.data)
        .map((l) => l.step),
  },
  {
    stack: "prime-rl",
    entry: "toy",
    settings: [
      ["max_steps", STEPS],
      ["ckpt.interval", 4],
    ],
    checkpoints: "checkpoints",
    // prime-rl numbers steps from 0: the orchestrator's record of each has the reward.
    logged: (dir) =>
      readJsonl<Record<string, number>>(path.join(dir, "metrics.jsonl"))
        .filter((m) => "train/agg/all/reward/mean" in m)
        .map((m) => m.step! + 1),
  },
  {
    stack: "trl-grpo",
    entry: "toy_arithmetic_small_groups",
    settings: [
      ["max_steps", STEPS],
      ["save_steps", 4],
    ],
    checkpoints: "output",
    // The last checkpoint's trainer_state.json holds the whole log history.
    logged: (dir) => {
      const state = path.join(dir, "output", `checkpoint-${STEPS}`, "trainer_state.json");
      const history = (JSON.parse(readFileSync(state, "utf8")) as { log_history: Array<{ step: number }> }).log_history;
      return history.map((r) => r.step);
    },
  },
];

interface Row {
  id: string;
  status: string;
  attempt: number;
}

describe("a built-in stack's run across a SIGKILL of the bot", () => {
  it.each(CASES)("$stack: the restarted bot re-attaches to the same trainer, every step once", async (c) => {
    const cwd = tempDir(`rl-${c.stack}-kill-`);
    bots.dataDirs.push(path.join(cwd, "data"));
    const env = {
      RL_STACK: c.stack,
      // The miniature's pace: long enough to be killed mid-run, short enough for the suite.
      RL_DEMO_STEP_SECONDS: "0.2",
      RL_STOP_GRACE_SECONDS: "3",
      RL_LOG_LEVEL: "warn",
      WANDB_API_KEY: "",
      WANDB_BASE_URL: "http://127.0.0.1:9",
    };
    const runs = () =>
      readDb(cwd, env, (db) => db.prepare("SELECT id, status, attempt FROM runs").all() as Row[]) ?? [];
    const trainerPid = (id: string) =>
      readDb(cwd, env, (db) => db.prepare("SELECT pid FROM run_processes WHERE run_id = ?").get(id) as { pid: number })
        ?.pid;

    const first = await bots.startBot(cwd, env);
    const sets = c.settings.map(([k, v]) => `/rl set ${k} ${v}\n`).join("");
    first.write(`/rl select ${c.entry}\n${sets}/rl start\n`);
    const [run] = await waitFor(() => {
      const rows = runs();
      return rows[0]?.status === "running" ? rows : undefined;
    }, `the ${c.stack} run to be running`);
    const runDir = path.join(cwd, "data", "runs", run!.id);
    const saved = path.join(runDir, c.checkpoints);
    await waitFor(() => existsSync(saved) && readdirSync(saved).some((f) => /\d+$/.test(f)), "a first checkpoint", {
      explain: () => first.stdout() + first.stderr(),
    });
    const pid = trainerPid(run!.id)!;
    first.kill("SIGKILL");
    await first.ended;
    // The bot is gone; its trainer is not.
    expect(processStartTime(pid)).toBeDefined();

    const second = await bots.startBot(cwd, env);
    const completed = new RegExp(
      `✅ Run completed: ${run!.id} \\(${c.entry}\\)\\nTraining complete after ${STEPS} steps`,
    );
    await waitFor(() => completed.test(second.stdout()), "the run to complete under the restarted bot", {
      explain: () => second.stdout() + second.stderr(),
    });
    expect(runs()).toEqual([{ id: run!.id, status: "completed", attempt: 0 }]);
    // Re-attached, not started again: one trainer process ran every step, each once.
    expect(trainerPid(run!.id)).toBe(pid);
    expect(c.logged(runDir)).toEqual(Array.from({ length: STEPS }, (_, i) => i + 1));
    second.write(`/rl status ${run!.id}\n`);
    await waitFor(() => new RegExp(`Step: ${STEPS} / ${STEPS}`).test(second.stdout()), "the status with every step");
  });
});

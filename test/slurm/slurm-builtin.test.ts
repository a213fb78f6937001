// The built-in stacks on a real one-machine Slurm, on their miniatures: verl's job requeued (`scontrol requeue`, a
// preemption) goes on as the same run with resume_mode=auto, the new attempt writing its own log (verl's file logger
// truncates its file on every start), every step counted once; prime-rl and TRL GRPO each run to completion as one batch
// job, with their progress and checkpoints.
import { afterEach, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config.ts";
import { CONSOLE, closeDemoStacks, nextEvent, type DemoStack } from "../helpers/demo-stack.ts";
import { runFile, startBuiltin } from "../helpers/builtin-stack.ts";
import { SLURM_ENV, jobEnded, requeueRun, slurmMissing } from "../helpers/slurm.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { readJsonl } from "../stacks/miniatures/miniature-kit.ts";

const missing = slurmMissing();
// CI starts Slurm in .ci/run: there a missing Slurm is a failure, never a skip.
const skip = missing !== undefined && !process.env.CI;
if (skip) console.warn(`Skipping the Slurm built-in stack tests: ${missing}`);

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

async function onSlurm(name: string, entry: string, settings: Array<[string, string]>, env = {}, stepSeconds = "0") {
  // The training root is named: the job runs the trainer from it on the compute node.
  const root = `${PACKAGE_ROOT}/examples/${name}`;
  const stack = startBuiltin(
    name,
    { RL_DEMO_STEP_SECONDS: stepSeconds },
    { ...SLURM_ENV, RL_TRAINING_ROOT: root, ...env },
  );
  stacks.push(stack);
  await stack.services.env.selectEnvironment(CONSOLE, entry);
  for (const [key, value] of settings) await stack.services.env.editConfig(CONSOLE, key, value);
  return stack.services;
}

/** The training steps verl's file logger wrote in one attempt's file. */
const verlSteps = (file: string) =>
  readJsonl<{ step: number; data: object }>(file)
    .filter((l) => "training/global_step" in l.data)
    .map((l) => l.step);

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe.skipIf(skip)("built-in stacks on the slurm backend", () => {
  it("verl: a requeued job goes on as the same run with resume_mode=auto, every step once", async () => {
    const services = await onSlurm(
      "verl",
      "ppo_trainer",
      [
        ["actor_rollout_ref.rollout.name", "vllm"],
        ["algorithm.adv_estimator", "grpo"],
        ["trainer.val_before_train", "false"],
        ["trainer.total_training_steps", "24"],
        ["trainer.save_freq", "3"],
      ],
      { RL_SLURM_REQUEUE: "true" },
      "0.15",
    );
    const completed = nextEvent(services, "completed");
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run).toMatchObject({ backend: "slurm", stack: "verl" });
    await waitFor(async () => (await services.manager.checkpoints(services.runs.get(run.id)!)).length >= 2, "2 saves");
    await requeueRun(services, run);
    expect((await completed).run.id).toBe(run.id);
    expect(await jobEnded(run)).toMatchObject({ state: "COMPLETED", exitCode: 0 });

    const done = services.runs.get(run.id)!;
    expect(done).toMatchObject({ status: "completed", attempt: 1, jobRequeues: 1 });
    // The second attempt went on from the last checkpoint the first saved, into a log of its own.
    const first = verlSteps(runFile(services, run.id, "metrics.0.jsonl"));
    const second = verlSteps(runFile(services, run.id, "metrics.1.jsonl"));
    const saved = second[0]! - 1;
    expect(saved % 3).toBe(0);
    expect(second).toEqual(range(saved + 1, 24));
    // Each step once: the first attempt's up to its checkpoint (verl saves a step before it logs it, so a preemption in
    // between leaves that one step in no file), then the second's.
    const progress = await services.manager.stackOf(done).readProgress(done);
    const logged = [...new Set([...first.filter((s) => s <= saved), ...second])].sort((a, b) => a - b);
    expect(progress.rewardHistory.map((p) => p.step)).toEqual(logged);
    expect(logged.filter((s) => s > saved)).toEqual(range(saved + 1, 24));
    expect(progress.step).toBe(24);
  });

  it.each([
    {
      name: "prime-rl",
      entry: "toy",
      settings: [
        ["max_steps", "6"],
        ["ckpt.interval", "2"],
      ],
      saved: "step_6",
    },
    {
      name: "trl-grpo",
      entry: "toy_arithmetic_small_groups",
      settings: [
        ["max_steps", "6"],
        ["save_steps", "2"],
      ],
      saved: "checkpoint-6",
    },
  ] as Array<{ name: string; entry: string; settings: Array<[string, string]>; saved: string }>)(
    "$name: runs an entry to completion as one batch job, with its progress and checkpoints",
    async ({ name, entry, settings, saved }) => {
      const services = await onSlurm(name, entry, settings);
      const completed = nextEvent(services, "completed");
      const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
      expect(run).toMatchObject({ backend: "slurm", stack: name });
      expect((await completed).run.id).toBe(run.id);
      expect(await jobEnded(run)).toMatchObject({ state: "COMPLETED", exitCode: 0 });
      const done = services.runs.get(run.id)!;
      const progress = await services.manager.stackOf(done).readProgress(done);
      expect(progress.rewardHistory.map((p) => p.step)).toEqual(range(1, 6));
      expect((await services.manager.checkpoints(done)).map((c) => c.name).at(-1)).toBe(saved);
      expect(await services.report.status(done)).toMatchObject({ step: 6, total_steps: 6 });
    },
  );
});

// A trainer described by its manifest alone, on a real one-machine Slurm: one batch job to completion, and a
// requeued job (`scontrol requeue`, a preemption) that goes on as the same run with the manifest's resume fields, every
// step counted once.
import { afterEach, describe, expect, it } from "vitest";
import { CONSOLE, closeDemoStacks, nextEvent, type DemoStack } from "../helpers/demo-stack.ts";
import { SLURM_ENV, jobEnded, requeueRun, slurmMissing } from "../helpers/slurm.ts";
import { argvsOf, savedIters, selectToy, startToy, type ToyPace } from "../helpers/toy-trainer.ts";

const missing = slurmMissing();
// CI starts Slurm in .ci/run: there a missing Slurm is a failure, never a skip.
const skip = missing !== undefined && !process.env.CI;
if (skip) console.warn(`Skipping the Slurm manifest tests: ${missing}`);

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

async function toy(env: Record<string, string>, pace: ToyPace): Promise<DemoStack> {
  const stack = await startToy({ ...SLURM_ENV, ...env });
  stacks.push(stack);
  await selectToy(stack.services, CONSOLE, pace);
  return stack;
}

describe.skipIf(skip)("a manifest stack on the slurm backend", () => {
  it("runs an entry to completion as one batch job", async () => {
    const { services } = await toy({}, { iters: 6 });
    const completed = nextEvent(services, "completed");
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run).toMatchObject({ backend: "slurm", stack: "toy" });
    expect((await completed).run.id).toBe(run.id);
    expect(await jobEnded(run)).toMatchObject({ state: "COMPLETED", exitCode: 0 });
    const view = await services.report.status(services.runs.get(run.id)!);
    expect(view).toMatchObject({ step: 6, total_steps: 6 });
    expect(argvsOf(services, run.id)).toHaveLength(1);
  });

  it("goes on as the same run when its job is requeued, started with the manifest's resume fields", async () => {
    const { services } = await toy({ RL_SLURM_REQUEUE: "true" }, { iters: 60, pause: 0.15, saveEvery: 3 });
    const completed = nextEvent(services, "completed");
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    while (savedIters(services, run.id).length < 2) await new Promise((r) => setTimeout(r, 50));
    await requeueRun(services, run);
    expect((await completed).run.id).toBe(run.id);

    const [first, second, more] = argvsOf(services, run.id);
    expect(first).not.toContain("resume=true");
    expect(second).toEqual([...first!, "resume=true"]);
    expect(more).toBeUndefined();
    const done = services.runs.get(run.id)!;
    expect(done).toMatchObject({ status: "completed", attempt: 1, jobRequeues: 1 });
    const progress = await services.manager.stackOf(done).readProgress(done);
    expect(progress.rewardHistory.map((p) => p.step)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });
});

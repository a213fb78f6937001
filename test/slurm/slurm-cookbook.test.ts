// A cookbook recipe run through a real one-machine Slurm: one batch job running the recipe's one process, completed
// with its steps, reward and final weights; and stopped midway with nothing of it left.
import { hostname } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { processStartTime } from "../../src/process/process-info.ts";
import { recipeLogDir } from "../../src/stacks/tinker-cookbook/cookbook-stack.ts";
import { TERMINAL_STATES } from "../../src/training/backends/slurm/slurm-commands.ts";
import { waitFor } from "../helpers/bot-process.ts";
import { processesMentioning, selectRecipe, startCookbook, type RecipePace } from "../helpers/cookbook.ts";
import { CONSOLE, closeDemoStacks, nextEvent, type DemoStack } from "../helpers/demo-stack.ts";
import { SLURM_ENV, componentPids, jobEnded, slurmMissing, statusOf } from "../helpers/slurm.ts";

const missing = slurmMissing();
// CI starts Slurm in .ci/run: there a missing Slurm is a failure, never a skip.
const skip = missing !== undefined && !process.env.CI;
if (skip) console.warn(`Skipping the Slurm cookbook tests: ${missing}`);

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

async function cookbook(pace: RecipePace): Promise<DemoStack> {
  const stack = await startCookbook({ env: SLURM_ENV });
  stacks.push(stack);
  await selectRecipe(stack.services, CONSOLE, pace);
  return stack;
}

describe.skipIf(skip)("cookbook runs on the slurm backend", () => {
  it("runs a recipe to completion as one batch job, with steps, reward and final weights", async () => {
    const stack = await cookbook({ steps: 8, stepSeconds: 0.1 });
    const { services } = stack;
    const kinds: string[] = [];
    services.manager.onEvent((e) => kinds.push(e.kind));
    const completed = nextEvent(services, "completed");
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run).toMatchObject({ backend: "slurm", stack: "tinker-cookbook" });
    expect(run.jobId).toMatch(/^\d+$/);
    const event = await completed;
    expect(event.run.id).toBe(run.id);
    expect(event.message).toMatch(/^Training complete after 8 steps; reward mean 0\.\d+\. Final weights: tinker:\/\//);
    expect(kinds).toEqual(["started", "completed"]);

    expect(await jobEnded(run)).toMatchObject({ state: "COMPLETED", exitCode: 0 });
    const view = await services.report.status(services.runs.get(run.id)!);
    expect(view).toMatchObject({ step: 8, total_steps: 8 });
    expect(typeof view.reward_mean).toBe("number");
    expect(view.slurm).toMatchObject({ job_id: run.jobId, state: "COMPLETED", node: hostname().split(".")[0] });
    expect(view.processes).toEqual({ trainer: "exited (0)" });
    const results = await services.report.results(services.runs.get(run.id)!);
    expect(results.final_weights).toMatch(/^tinker:\/\/\S+\/sampler_weights\/final$/);
    expect(results.reward_history).toHaveLength(8);
    const status = await statusOf(stack, run.id);
    expect(status?.state).toBe("completed");
    expect(Object.keys(status?.components ?? {})).toEqual(["trainer"]);
  });

  it("stops a recipe's job midway: stopped, the recipe gone, the job ended", async () => {
    const stack = await cookbook({ steps: 400, stepSeconds: 0.1 });
    const { services } = stack;
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status).toBe("running");
    await waitFor(async () => ((await services.report.status(services.runs.get(run.id)!)).step ?? 0) >= 2, "two steps");
    const pids = await componentPids(stack, run.id);
    expect(pids).toHaveLength(1);
    expect(processStartTime(pids[0]!)).toBeDefined();

    const stoppedEvent = nextEvent(services, "stopped", run.id);
    const stopped = await services.manager.stop(run.id, "alice");
    expect(stopped).toMatchObject({ status: "stopped", stoppedBy: "alice" });
    expect((await stoppedEvent).message).toMatch(/stopped by alice/);
    expect(processStartTime(pids[0]!)).toBeUndefined();
    expect(processesMentioning(recipeLogDir(services.config, run.id))).toEqual([]);
    expect((await statusOf(stack, run.id))?.state).toBe("stopped");
    const job = await jobEnded(run);
    expect(job === "unknown" || TERMINAL_STATES.has(job.state)).toBe(true);
  });
});

// A sweep on the slurm backend: one sbatch --array job, a task per run with its own run config, on a real one-machine Slurm.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { jobFiles } from "../../src/training/backends/slurm/job-spec.ts";
import { readJobStatus } from "../../src/training/backends/slurm/job-status.ts";
import { CONSOLE, closeDemoStacks, startDemo, type DemoStack } from "../helpers/demo-stack.ts";
import { slurm, slurmMissing } from "../helpers/slurm.ts";
import { waitFor } from "../helpers/wait-for.ts";

const missing = slurmMissing();
// CI starts Slurm in .ci/run: there a missing Slurm is a failure, never a skip.
const skip = missing !== undefined && !process.env.CI;
if (skip) console.warn(`Skipping the Slurm sweep tests: ${missing}`);

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

describe.skipIf(skip)("a sweep on the slurm backend", () => {
  it("is one two-task job array, each task running its own run config to completion", async () => {
    const stack = await startDemo({ totalSteps: 4, env: { RL_BACKEND: "slurm", RL_SLURM_POLL_SECONDS: "1" } });
    stacks.push(stack);
    const { services } = stack;
    await services.env.selectEnvironment(CONSOLE, "arithmetic");
    const ctx: CommandContext = { channel: CONSOLE, user: { id: "local" }, via: "console", services };
    const prompt = await dispatch({ text: "/rl sweep temperature=0.2,1.8" }, ctx);
    expect(prompt.reply.fields).toContainEqual({ label: "How", value: "one Slurm job array, a task per run" });
    const done = await dispatch({ text: "/rl sweep temperature=0.2,1.8" }, ctx, { confirmed: true });
    expect(done.ok, done.reply.text).toBe(true);
    const { sweep_id: sweepId } = done.reply.data as { sweep_id: string };
    const runs = services.runs.listBySweep(sweepId);
    expect(runs).toHaveLength(2);
    const arrayId = runs[0]!.jobId!.split("_")[0]!;
    expect(runs.map((r) => r.jobId)).toEqual([`${arrayId}_0`, `${arrayId}_1`]);

    // One array job, named after the sweep, with two tasks.
    const job = await slurm.show(arrayId);
    expect(job === "unknown" ? undefined : job.fields["JobName"]).toBe(`rl-${sweepId}`);

    await waitFor(
      () => services.runs.listBySweep(sweepId).every((r) => r.status === "completed"),
      "both runs to complete",
    );
    for (const [i, run] of runs.entries()) {
      const status = await readJobStatus(
        jobFiles(services.config.logsDir, services.config.runConfigsDir, run.id).status,
      );
      expect(status?.state).toBe("completed");
      const written = parse(readFileSync(run.configPath!, "utf8")) as { env: Record<string, unknown> };
      expect(written.env.temperature).toBe([0.2, 1.8][i]);
      // The task's own launcher output is readable under the run's name.
      expect(
        readFileSync(jobFiles(services.config.logsDir, services.config.runConfigsDir, run.id).output, "utf8"),
      ).toContain(`run ${run.id} on`);
    }
    await waitFor(() => services.sweeps.get(sweepId)?.comparedAt !== undefined, "the sweep's comparison");
  });

  it("stops every task of the array with one /rl stop <sweep>: the running one and the one still pending", async () => {
    const stack = await startDemo({
      totalSteps: 400,
      stepSeconds: 0.1,
      env: { RL_BACKEND: "slurm", RL_SLURM_POLL_SECONDS: "1" },
    });
    stacks.push(stack);
    const { services } = stack;
    await services.env.selectEnvironment(CONSOLE, "arithmetic");
    const ctx: CommandContext = { channel: CONSOLE, user: { id: "local" }, via: "console", services };
    const done = await dispatch({ text: "/rl sweep temperature=0.2,1.8" }, ctx, { confirmed: true });
    const { sweep_id: sweepId } = done.reply.data as { sweep_id: string };
    // RL_MAX_CONCURRENT_RUNS=1 throttles the array to one task at a time: the first runs, the second waits.
    await waitFor(() => services.runs.listBySweep(sweepId)[0]!.status === "running", "the first task to run");
    const second = await slurm.show(services.runs.listBySweep(sweepId)[1]!.jobId!);
    expect(second === "unknown" ? "unknown" : second.state).toBe("PENDING");
    const stopped = await dispatch({ text: `/rl stop ${sweepId}` }, ctx, { confirmed: true });
    expect(stopped.ok, stopped.reply.text).toBe(true);
    expect(services.runs.listBySweep(sweepId).map((r) => r.status)).toEqual(["stopped", "stopped"]);
    for (const run of services.runs.listBySweep(sweepId)) {
      const job = await slurm.show(run.jobId!);
      expect(job === "unknown" || ["CANCELLED", "COMPLETED", "FAILED"].includes(job.state)).toBe(true);
    }
  });
});

// Submits a run's batch job (or a sweep's job array): writes the launcher's spec, calls sbatch, and reports the start.
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import type { RunRow, RunsRepo } from "../../../../db/runs.ts";
import type { Config } from "../../../config.ts";
import { asRlError } from "../../../errors.ts";
import type { Logger } from "../../../log.ts";
import type { StackRegistry } from "../../../stacks/stack-registry.ts";
import { runFolderOf } from "../../../stacks/log-path.ts";
import { delay } from "../../wait-until.ts";
import { arrayOutputPattern, buildJobSpec, sbatchArgs, writeJobSpec, type JobFiles } from "./job-spec.ts";
import type { JobSnapshots } from "./job-snapshots.ts";
import type { JobWatcher } from "./job-watcher.ts";
import type { SlurmCommands } from "./slurm-commands.ts";
import type { SlurmOutcomes } from "./slurm-outcomes.ts";

export interface JobSubmitterDeps {
  config: Config;
  runs: RunsRepo;
  log: Logger;
  commands: SlurmCommands;
  /** Each run's stack: how a component would be started locally (the job starts the very same commands). */
  stacks: StackRegistry;
  files: (runId: string) => JobFiles;
  /** Runs this process is submitting or stopping: no one else decides about them meanwhile. */
  busy: Set<string>;
  watcher: JobWatcher;
  snapshots: JobSnapshots;
  fail: SlurmOutcomes["fail"];
}

export function createJobSubmitter(deps: JobSubmitterDeps) {
  const { config, runs, log, commands, files, busy, watcher } = deps;

  /**
   * How the job's processes start again when Slurm requeues it: as the run's next attempt (a stack resumes with its own
   * fields). Undefined when the job is not requeued by the bot's settings, the stack cannot resume, or the next
   * attempt's plan needs what only that attempt knows (the checkpoint it resumes from): the same argv runs again.
   */
  async function restartPlans(run: RunRow) {
    const stack = deps.stacks.of(run);
    if (!config.slurm.requeue || !stack.canResume) return undefined;
    const next = { ...run, attempt: run.attempt + 1 };
    try {
      return await Promise.all(stack.components.map((c) => stack.plan(next, c.name)));
    } catch (err) {
      log.warn("a requeued job will start its processes as the first time", { runId: run.id, err });
      return undefined;
    }
  }

  /** The run's launcher spec written to its file; the job's environment (keys included) goes to sbatch, never to disk. */
  async function writeSpec(run: RunRow): Promise<Record<string, string>> {
    const stack = deps.stacks.of(run);
    const plans = await Promise.all(stack.components.map((c) => stack.plan(run, c.name)));
    const { spec, env } = buildJobSpec({
      restartPlans: await restartPlans(run),
      runId: run.id,
      runFolder: runFolderOf(config.dataDir, run.id),
      configPath: run.configPath ?? "",
      stack,
      plans,
      files: files(run.id),
      stopGraceMs: config.stopGraceMs,
      readyTimeoutMs: config.readyTimeoutMs,
      secrets: config.secrets,
      forwardSignalToMain: config.slurm.requeue,
    });
    writeJobSpec(files(run.id).spec, spec);
    // slurmd opens --output before the launcher runs: a missing folder fails the job at launch.
    mkdirSync(config.logsDir, { recursive: true });
    return env;
  }

  /** Tell each component's readiness as the watcher sees it, until the run leaves "starting" or waiting would be too long. */
  async function followStart(
    run: RunRow,
    jobId: string,
    progress: ((text: string) => Promise<void>) | undefined,
  ): Promise<RunRow> {
    const submittedAt = Date.now();
    const told = new Set<string>();
    for (;;) {
      const row = runs.get(run.id)!;
      const snap = deps.snapshots.latest(run.id);
      for (const c of snap?.status?.ready ?? []) {
        if (told.has(c)) continue;
        told.add(c);
        await progress?.(`${c} is ready`).catch(() => undefined);
      }
      if (row.status !== "starting" || !watcher.isWatching(run.id)) return row;
      // A job that runs is waited for like a local start (its launcher bounds the readiness checks); one still in
      // the queue, or a Slurm that does not answer, gets an answer after RL_SLURM_START_WAIT_SECONDS.
      const job = snap?.job && snap.job !== "unknown" ? snap.job : undefined;
      const waited = Date.now() - submittedAt;
      const queued = !job || job.state === "PENDING";
      if (
        (queued && waited >= config.slurm.startWaitMs) ||
        waited >= config.slurm.startWaitMs + 3 * config.readyTimeoutMs + 30_000
      ) {
        const where = job
          ? `is ${job.state.toLowerCase()}${job.reason ? ` (${job.reason})` : ""}`
          : "has not been seen running yet";
        await progress?.(
          `Slurm job ${jobId} ${where}; the run stays starting until it runs (/rl status ${run.id}).`,
        ).catch(() => undefined);
        return row;
      }
      await delay(200);
    }
  }

  return {
    /** Submit the run's job; resolves once the run is running or failed, or its job waits in the Slurm queue. */
    async launch(run: RunRow, progress?: (text: string) => Promise<void>): Promise<RunRow> {
      busy.add(run.id);
      try {
        let jobId: string;
        try {
          const f = files(run.id);
          const env = await writeSpec(run);
          jobId = await commands.submit(
            sbatchArgs(config.slurm, { runId: run.id, files: f, chdir: config.trainingRoot }),
            env,
          );
        } catch (thrown) {
          await deps.fail(run, { message: asRlError(thrown).message });
          return runs.get(run.id)!;
        }
        runs.update(run.id, { jobId, jobRequeues: 0 });
        log.info("submitted a Slurm job", { runId: run.id, jobId });
        await progress?.(`Submitted Slurm job ${jobId}`).catch(() => undefined);
        watcher.watch(run.id);
        return await followStart(run, jobId, progress);
      } finally {
        busy.delete(run.id);
      }
    },

    /**
     * A sweep's runs (all "starting") as one job array, task i running run i with its own spec and run config, as many
     * at once as RL_MAX_CONCURRENT_RUNS allows (the trainer's ports are fixed per node). Resolves once submitted.
     */
    async launchArray(sweepId: string, members: readonly RunRow[]): Promise<RunRow[]> {
      for (const run of members) busy.add(run.id);
      try {
        let arrayId: string;
        try {
          const envs = await Promise.all(members.map((run) => writeSpec(run)));
          const output = arrayOutputPattern(config.logsDir, sweepId);
          // Each run's launcher output is where its task writes it, under the run's own name too.
          members.forEach((run, i) => {
            rmSync(files(run.id).output, { force: true });
            symlinkSync(output.replace("%a", String(i)), files(run.id).output);
          });
          const array = {
            name: sweepId,
            specs: members.map((run) => files(run.id).spec),
            output,
            throttle: config.maxConcurrentRuns,
          };
          arrayId = await commands.submit(
            sbatchArgs(config.slurm, { runId: sweepId, files: files(sweepId), chdir: config.trainingRoot, array }),
            envs[0]!,
          );
        } catch (thrown) {
          for (const run of members) await deps.fail(run, { message: asRlError(thrown).message });
          return members.map((run) => runs.get(run.id)!);
        }
        log.info("submitted a Slurm job array", { sweepId, arrayId, tasks: members.length });
        members.forEach((run, i) => {
          runs.update(run.id, { jobId: `${arrayId}_${i}`, jobRequeues: 0 });
          watcher.watch(run.id);
        });
        return members.map((run) => runs.get(run.id)!);
      } finally {
        for (const run of members) busy.delete(run.id);
      }
    },
  };
}

export type JobSubmitter = ReturnType<typeof createJobSubmitter>;

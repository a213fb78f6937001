// The slurm backend: a run is one batch job (a sweep's run one task of its job array); submit, follow its state and status file, decide, stop, re-attach.
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { COMPONENTS, type Component } from "../../../../db/run-processes.ts";
import type { RunRow, RunsRepo } from "../../../../db/runs.ts";
import type { Config } from "../../../config.ts";
import { asRlError } from "../../../errors.ts";
import type { Logger } from "../../../log.ts";
import type { SpawnPlan } from "../../local-supervisor.ts";
import type { Transitions } from "../../lifecycle/transitions.ts";
import { delay } from "../../wait-until.ts";
import { arrayOutputPattern, buildJobSpec, jobFiles, jobName, sbatchArgs, writeJobSpec } from "./job-spec.ts";
import { componentStates, isComponent, isOutcome, readJobStatus, type JobStatus } from "./job-status.ts";
import { TERMINAL_STATES, createSlurmCommands, type SlurmCommands, type SlurmJob } from "./slurm-commands.ts";
import { createSlurmOutcomes } from "./slurm-outcomes.ts";

export interface SlurmBackendDeps {
  config: Config;
  runs: RunsRepo;
  log: Logger;
  now: () => number;
  /** How a component would be started locally: the job starts the very same commands. */
  plan: (run: RunRow, component: Component) => Promise<SpawnPlan>;
  logPath: (runId: string, component: Component) => string;
  move: Transitions["move"];
  /** A run ended: start what is queued. */
  onEnded: () => void;
  addresses: { apiUrl: string; trainerUrl: string };
  envSettleMs: number;
  commands?: SlurmCommands;
  /** How long an ended job may go without its launcher's outcome in the status file (a shared filesystem may lag). */
  outcomeGraceMs?: number;
}

/** The job as /rl status shows it. */
export interface SlurmJobView {
  job_id: string;
  state: string;
  reason?: string;
  node?: string;
  exit_code?: number;
}

interface Snapshot {
  job?: SlurmJob | "unknown";
  status?: JobStatus;
  /** When the job was first seen running without a status file (the node may not see the data folder). */
  runningWithoutStatusSince?: number;
  /** When the job was first seen ended without an outcome in its status file (a shared filesystem may lag). */
  endedWithoutOutcomeSince?: number;
}

/** The watcher's wait between polls: it never keeps a one-shot command alive, and ends early on abort. */
const pause = (ms: number, signal?: AbortSignal) => delay(ms, signal, { unref: true });

export function createSlurmBackend(deps: SlurmBackendDeps) {
  const { config, runs, log } = deps;
  const commands = deps.commands ?? createSlurmCommands();
  const watchers = new Map<string, AbortController>();
  const snapshots = new Map<string, Snapshot>();
  /** Runs this process is submitting or stopping: no one else decides about them meanwhile. */
  const busy = new Set<string>();
  const outcomeGraceMs = deps.outcomeGraceMs ?? 10_000;

  const files = (runId: string) => jobFiles(config.logsDir, config.runConfigsDir, runId);
  const { markStarted, fail, complete, lose, endedOutside } = createSlurmOutcomes({
    runs,
    log,
    now: deps.now,
    logPath: deps.logPath,
    jobOutput: (runId) => files(runId).output,
    move: deps.move,
    onEnded: deps.onEnded,
  });
  const snapshot = (runId: string) => {
    let s = snapshots.get(runId);
    if (!s) snapshots.set(runId, (s = {}));
    return s;
  };

  async function observe(run: RunRow): Promise<Snapshot> {
    const snap = snapshot(run.id);
    snap.status = await readJobStatus(files(run.id).status);
    if (run.jobId) snap.job = await commands.show(run.jobId);
    return snap;
  }

  /** Decide what the latest look at the job means for the run; true once the run has ended. */
  async function decide(runId: string, snap: Snapshot): Promise<boolean> {
    let run = runs.get(runId);
    if (!run || (run.status !== "starting" && run.status !== "running")) return true;
    const { job, status } = snap;
    const slurmJob = job === "unknown" ? undefined : job;
    if (run.status === "starting" && status?.reached_running)
      run = markStarted(run, status.node ?? slurmJob?.node ?? undefined);
    if (status && isOutcome(status.state)) {
      if (status.state === "completed") {
        await complete(run);
        return true;
      }
      if (status.state === "failed") {
        await fail(run, {
          component: isComponent(status.component) ? status.component : undefined,
          message: status.message ?? "The job's launcher reported a failure.",
          exitCode: status.exit_code ?? undefined,
          signal: status.signal ?? undefined,
        });
        return true;
      }
      // Stopped by a signal the bot did not send: wait for Slurm's verdict (CANCELLED or TIMEOUT).
      if (slurmJob && !TERMINAL_STATES.has(slurmJob.state)) return false;
      await endedOutside(run, slurmJob);
      return true;
    }
    if (job === "unknown") {
      // scontrol forgets ended jobs; accounting, where the cluster keeps it, still knows how the job ended.
      const accounted = await commands.account(run.jobId!).catch(() => undefined);
      if (accounted && TERMINAL_STATES.has(accounted.state)) {
        await endedOutside(run, accounted);
        return true;
      }
      lose(run, `Slurm no longer knows job ${run.jobId}, and it left no outcome in ${files(run.id).status}.`);
      return true;
    }
    if (slurmJob && TERMINAL_STATES.has(slurmJob.state)) {
      snap.endedWithoutOutcomeSince ??= Date.now();
      if (Date.now() - snap.endedWithoutOutcomeSince < outcomeGraceMs) return false;
      await endedOutside(run, slurmJob);
      return true;
    }
    if (slurmJob?.state === "RUNNING" && !status) {
      snap.runningWithoutStatusSince ??= Date.now();
      if (Date.now() - snap.runningWithoutStatusSince > config.readyTimeoutMs) {
        await commands.cancel(run.jobId!);
        await fail(run, {
          message: `Slurm job ${run.jobId} runs on ${slurmJob.node ?? "its node"} but wrote no status file to ${files(run.id).status}: is RL_DATA_DIR on a filesystem the compute nodes see? The job was cancelled.`,
        });
        return true;
      }
    }
    return false;
  }

  // --- watching -------------------------------------------------------------------------------

  async function pollOnce(runId: string): Promise<boolean> {
    let run = runs.get(runId);
    if (!run || (run.status !== "starting" && run.status !== "running")) return true;
    if (!run.jobId) {
      // Re-attached while Slurm could not be asked whether the job was ever submitted: ask now.
      if (!(await findJobId(run))) {
        lose(run, "The bot restarted while this run was starting, before its Slurm job was submitted.");
        return true;
      }
      run = runs.get(runId)!;
    }
    return decide(runId, await observe(run));
  }

  /** Follow a job until its run ends: Slurm announces nothing, so its state is polled every RL_SLURM_POLL_SECONDS. */
  function watch(runId: string): void {
    if (watchers.has(runId)) return;
    const ctl = new AbortController();
    watchers.set(runId, ctl);
    void (async () => {
      try {
        while (!ctl.signal.aborted) {
          const ended = await pollOnce(runId).catch((err: unknown) => {
            // Slurm not answering is not an outcome: keep the run as it is and look again.
            log.warn("could not check the Slurm job", { runId, err });
            return false;
          });
          if (ended || ctl.signal.aborted) break;
          await pause(config.slurm.pollMs, ctl.signal);
        }
      } finally {
        if (watchers.get(runId) === ctl) watchers.delete(runId);
      }
    })();
  }

  function unwatch(runId: string): void {
    watchers.get(runId)?.abort();
    watchers.delete(runId);
  }

  async function waitForEnd(jobId: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await commands.show(jobId).catch(() => undefined);
      if (job === "unknown" || (job && TERMINAL_STATES.has(job.state))) return true;
      if (Date.now() >= deadline) return false;
      await delay(250);
    }
  }

  /** The run's launcher spec written to its file; the job's environment (keys included) goes to sbatch, never to disk. */
  async function writeSpec(run: RunRow): Promise<Record<string, string>> {
    const plans = await Promise.all(COMPONENTS.map((c) => deps.plan(run, c)));
    const { spec, env } = buildJobSpec({
      runId: run.id,
      configPath: run.configPath ?? "",
      plans,
      files: files(run.id),
      stopGraceMs: config.stopGraceMs,
      readyTimeoutMs: config.readyTimeoutMs,
      envSettleMs: deps.envSettleMs,
      apiUrl: deps.addresses.apiUrl,
      trainerUrl: deps.addresses.trainerUrl,
      secrets: config.secrets,
    });
    writeJobSpec(files(run.id).spec, spec);
    // slurmd opens --output before the launcher runs: a missing folder fails the job at launch.
    mkdirSync(config.logsDir, { recursive: true });
    return env;
  }

  async function findJobId(run: RunRow): Promise<string | undefined> {
    if (run.jobId) return run.jobId;
    if (run.sweepId) {
      // A sweep's run is task i of the sweep's job array, named after the sweep.
      const index = runs.listBySweep(run.sweepId).findIndex((r) => r.id === run.id);
      const arrayId = (await commands.findByName(jobName(run.sweepId)))[0]?.replace(/_.*$/, "");
      const found = arrayId && index >= 0 ? `${arrayId}_${index}` : undefined;
      if (found) runs.update(run.id, { jobId: found });
      return found;
    }
    // The bot may have died between sbatch answering and the id being saved: the job's name finds it.
    const found = (await commands.findByName(jobName(run.id)))[0];
    if (found) runs.update(run.id, { jobId: found });
    return found;
  }

  /** End the run's job (the run is "stopping"): SIGTERM to the launcher, which stops env -> trainer -> api; scancel if it lingers. */
  async function stop(run: RunRow): Promise<void> {
    busy.add(run.id);
    unwatch(run.id);
    try {
      const jobId = await findJobId(run);
      if (!jobId) return;
      const job = await commands.show(jobId);
      if (job === "unknown" || TERMINAL_STATES.has(job.state)) return;
      if (job.state !== "PENDING" && (await commands.signalBatch(jobId, "TERM"))) {
        // The launcher gives each component the grace period in turn, so the job may need all of them.
        if (await waitForEnd(jobId, config.stopGraceMs * COMPONENTS.length + 5000)) return;
        log.warn("the Slurm job outlived its stop grace period; cancelling it", { runId: run.id, jobId });
      }
      await commands.cancel(jobId);
      if (!(await waitForEnd(jobId, 60_000)))
        log.warn("the Slurm job is still not over after scancel", { runId: run.id, jobId });
    } finally {
      busy.delete(run.id);
    }
  }

  /** Bring a slurm run this process does not watch up to date: re-attach, or settle it from Slurm and the status file. */
  async function reconcile(input: RunRow, watchIt: boolean): Promise<RunRow> {
    if (watchers.has(input.id) || busy.has(input.id)) return input;
    try {
      let run = input;
      const jobId = await findJobId(run);
      run = runs.get(run.id) ?? run;
      if (run.status === "stopping") {
        // An earlier bot died while stopping this run: finish the stop.
        if (jobId) await stop(run);
        deps.move(
          run.id,
          ["stopping"],
          { status: "stopped", endedAt: deps.now() },
          {
            notice: {
              kind: "stopped",
              message: `Run ${run.id} was stopped${run.stoppedBy ? ` by ${run.stoppedBy}` : ""}.`,
            },
          },
        );
        return runs.get(run.id)!;
      }
      if (!jobId) {
        lose(run, "The bot restarted while this run was starting, before its Slurm job was submitted.");
        return runs.get(run.id)!;
      }
      const ended = await decide(run.id, await observe(run));
      if (!ended && watchIt) {
        watch(run.id);
        log.info("re-attached to a Slurm job", { runId: run.id, jobId });
      }
    } catch (err) {
      log.warn("could not check the Slurm job", { runId: input.id, err });
      if (watchIt) watch(input.id);
    }
    return runs.get(input.id) ?? input;
  }

  return {
    reconcile,
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
          await fail(run, { message: asRlError(thrown).message });
          return runs.get(run.id)!;
        }
        runs.update(run.id, { jobId });
        log.info("submitted a Slurm job", { runId: run.id, jobId });
        await progress?.(`Submitted Slurm job ${jobId}`).catch(() => undefined);
        watch(run.id);
        const submittedAt = Date.now();
        const told = new Set<string>();
        for (;;) {
          const row = runs.get(run.id)!;
          const snap = snapshots.get(run.id);
          for (const c of snap?.status?.ready ?? []) {
            if (told.has(c)) continue;
            told.add(c);
            await progress?.(`${c} is ready`).catch(() => undefined);
          }
          if (row.status !== "starting" || !watchers.has(run.id)) return row;
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
          for (const run of members) await fail(run, { message: asRlError(thrown).message });
          return members.map((run) => runs.get(run.id)!);
        }
        log.info("submitted a Slurm job array", { sweepId, arrayId, tasks: members.length });
        members.forEach((run, i) => {
          runs.update(run.id, { jobId: `${arrayId}_${i}` });
          watch(run.id);
        });
        return members.map((run) => runs.get(run.id)!);
      } finally {
        for (const run of members) busy.delete(run.id);
      }
    },

    owesStops: false,
    stop,

    async recover(run: RunRow): Promise<void> {
      await reconcile(run, true);
    },

    /** The job's state for /rl status, and each component's state from the launcher's status file. */
    async view(run: RunRow): Promise<{ job?: SlurmJobView; processes: Record<Component, string> }> {
      const status = await readJobStatus(files(run.id).status);
      let job: SlurmJob | "unknown" | undefined;
      if (run.jobId) job = await commands.show(run.jobId).catch(() => snapshots.get(run.id)?.job);
      const known = job === "unknown" ? undefined : job;
      const jobView: SlurmJobView | undefined = run.jobId
        ? {
            job_id: run.jobId,
            // Slurm forgets ended jobs after MinJobAge; the launcher's status file still says how it ended.
            state:
              known?.state ??
              (job === "unknown" ? `gone from Slurm${status ? ` (launcher: ${status.state})` : ""}` : "unknown"),
            reason: known?.reason,
            node: known?.node ?? status?.node ?? undefined,
            exit_code: known?.exitCode,
          }
        : undefined;
      return { job: jobView, processes: componentStates(status, known?.state === "PENDING" ? known : undefined) };
    },

    /** Bot shutdown: jobs carry on without the bot; stop following them. */
    detachAll(): void {
      for (const runId of [...watchers.keys()]) unwatch(runId);
    },

    /** Runs being submitted or stopped right now (tests wait for none). */
    busyCount: () => busy.size,
    isWatching: (runId: string) => watchers.has(runId),
  };
}

export type SlurmBackend = ReturnType<typeof createSlurmBackend>;

// The slurm backend: a run is one batch job (a sweep's run one task of its job array); submit, follow its state and status file, decide, stop, re-attach.
import type { Component } from "../../../../db/run-processes.ts";
import type { RunRow, RunsRepo } from "../../../../db/runs.ts";
import type { Config } from "../../../config.ts";
import { renameSync } from "node:fs";
import type { Logger } from "../../../log.ts";
import type { StackRegistry } from "../../../stacks/stack-registry.ts";
import type { Transitions } from "../../lifecycle/transitions.ts";
import { createJobIdFinder } from "./find-job-id.ts";
import { jobFiles } from "./job-spec.ts";
import { createJobSnapshots } from "./job-snapshots.ts";
import { createJobView } from "./job-view.ts";
import { createJobWatcher } from "./job-watcher.ts";
import { createJobJudge } from "./judge-job.ts";
import { createJobReconciler } from "./reconcile-job.ts";
import { createJobRequeuer } from "./requeue-job.ts";
import { createSlurmCommands, type SlurmCommands } from "./slurm-commands.ts";
import { createSlurmOutcomes } from "./slurm-outcomes.ts";
import { createJobStopper } from "./stop-job.ts";
import { createJobSubmitter } from "./submit-job.ts";

export interface SlurmBackendDeps {
  config: Config;
  runs: RunsRepo;
  log: Logger;
  now: () => number;
  /** Each run's stack: its processes, how each starts (as locally), its progress. */
  stacks: StackRegistry;
  logPath: (runId: string, component: Component) => string;
  move: Transitions["move"];
  /** A run ended: start what is queued. */
  onEnded: () => void;
  commands?: SlurmCommands;
  /** How long an ended job may go without its launcher's outcome in the status file (a shared filesystem may lag). */
  outcomeGraceMs?: number;
}

export function createSlurmBackend(deps: SlurmBackendDeps) {
  const { config, runs, log } = deps;
  const commands = deps.commands ?? createSlurmCommands();
  /** Runs this process is submitting or stopping: no one else decides about them meanwhile. */
  const busy = new Set<string>();
  const files = (runId: string) => jobFiles(config.logsDir, config.runConfigsDir, runId);

  const outcomes = createSlurmOutcomes({
    runs,
    log,
    now: deps.now,
    logPath: deps.logPath,
    stacks: deps.stacks,
    jobOutput: (runId) => files(runId).output,
    move: deps.move,
    onEnded: deps.onEnded,
  });
  const snapshots = createJobSnapshots({ commands, files });
  const requeuer = createJobRequeuer({
    config,
    log,
    commands,
    stacks: deps.stacks,
    move: deps.move,
    fail: outcomes.fail,
    now: deps.now,
  });
  const decide = createJobJudge({
    config,
    runs,
    commands,
    outcomes,
    requeuer,
    files,
    outcomeGraceMs: deps.outcomeGraceMs ?? 10_000,
  });
  const findJobId = createJobIdFinder({ runs, commands });
  const watcher = createJobWatcher({ config, runs, log, findJobId, snapshots, decide, lose: outcomes.lose });
  const stop = createJobStopper({ config, log, commands, busy, watcher, findJobId, stacks: deps.stacks });
  const reconcile = createJobReconciler({
    runs,
    log,
    now: deps.now,
    move: deps.move,
    busy,
    watcher,
    findJobId,
    snapshots,
    decide,
    stop,
    lose: outcomes.lose,
  });
  const submitter = createJobSubmitter({
    config,
    runs,
    log,
    commands,
    stacks: deps.stacks,
    files,
    busy,
    watcher,
    snapshots,
    fail: outcomes.fail,
  });

  return {
    /** Bring a slurm run this process does not watch up to date: re-attach, or settle it from Slurm and the status file. */
    reconcile,
    launch: submitter.launch,
    launchArray: submitter.launchArray,
    owesStops: false,
    stop,

    async recover(run: RunRow): Promise<void> {
      await reconcile(run, true);
    },

    /** A resumed run's next job: the launcher's status file and output of its last one are kept beside, renamed. */
    beforeRelaunch(run: RunRow): void {
      const f = files(run.id);
      for (const file of [f.status, f.output]) {
        try {
          renameSync(file, `${file}.attempt${run.attempt - 1}`);
        } catch {
          // Never written (the job did not get that far).
        }
      }
      snapshots.forget(run.id);
    },

    view: createJobView({ commands, files, snapshots, stacks: deps.stacks }),

    /** Bot shutdown: jobs carry on without the bot; stop following them. */
    detachAll: watcher.unwatchAll,

    /** Runs being submitted or stopped right now (tests wait for none). */
    busyCount: () => busy.size,
    isWatching: watcher.isWatching,
  };
}

export type SlurmBackend = ReturnType<typeof createSlurmBackend>;

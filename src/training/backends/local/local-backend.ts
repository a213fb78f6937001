// The local backend: a run's processes on this machine, started with readiness probes, watched, stopped, re-attached.
import type { Component } from "../../../../db/run-processes.ts";
import type { RunRow } from "../../../../db/runs.ts";
import type { Logger } from "../../../log.ts";
import { childEnv } from "../../../process/child-env.ts";
import { createPythonResolver } from "../../../process/python-interpreter.ts";
import { createExitWatcher } from "./exit-watcher.ts";
import { createLocalLauncher, type LocalLauncherDeps } from "./launch-local.ts";
import { abortLaunch, type Launches } from "./launches.ts";
import { createLocalOutcomes } from "./local-outcomes.ts";
import { createReadiness } from "./readiness.ts";
import { createLocalRecovery } from "./recover-local-run.ts";
import { createComponentStopper } from "./stop-component.ts";

/** The launcher's own needs (config, repositories, supervisor, transitions, planner, clock), and what the rest needs. */
export interface LocalBackendDeps extends Pick<
  LocalLauncherDeps,
  "config" | "runs" | "processes" | "supervisor" | "transitions" | "stacks" | "now"
> {
  logPath: (runId: string, component: Component) => string;
  /** Do the process actions the run is owed (the lifecycle's executor). */
  carryOut: (runId: string) => Promise<void>;
  /** A run ended: start what is queued. */
  onEnded: () => void;
  log: Logger;
}

export function createLocalBackend(deps: LocalBackendDeps) {
  const { runs, processes, supervisor, transitions, log } = deps;
  const launching: Launches = new Map();
  const python = createPythonResolver();

  const readiness = createReadiness({ supervisor, dataDir: deps.config.dataDir, now: deps.now });
  const outcomes = createLocalOutcomes({
    transitions,
    runs,
    stacks: deps.stacks,
    logPath: deps.logPath,
    carryOut: deps.carryOut,
    onEnded: deps.onEnded,
    log,
    now: deps.now,
    folders: [
      { path: deps.config.dataDir, what: "the data folder" },
      { path: deps.config.logsDir, what: "the runs' log folder" },
    ],
  });
  const exits = createExitWatcher({ runs, supervisor, launching, stacks: deps.stacks, outcomes, log });
  const launch = createLocalLauncher({
    config: deps.config,
    runs,
    processes,
    supervisor,
    transitions,
    stacks: deps.stacks,
    launching,
    readiness,
    exits,
    python,
    fail: outcomes.fail,
    now: deps.now,
  });
  const recover = createLocalRecovery({
    processes,
    supervisor,
    transitions,
    launching,
    exits,
    outcomes,
    stacks: deps.stacks,
    carryOut: deps.carryOut,
    onEnded: deps.onEnded,
    log,
    now: deps.now,
  });

  return {
    owesStops: true,
    launch,
    /** Resolve the configured Python once, as the bot starts, so the first run's processes need not wait for it. */
    warmUp: (): Promise<unknown> =>
      python.resolve(deps.config.python, deps.config.trainingRoot, childEnv(process.env, deps.config.trainingRoot, {})),
    async stop(run: RunRow): Promise<void> {
      await abortLaunch(launching, run.id, "stopped");
      await deps.carryOut(run.id);
    },
    /** Stop one component, whether this process started it or an earlier one did; a reused pid is never signalled. */
    stopComponent: createComponentStopper({ processes, supervisor, now: deps.now }),
    /** A live run no process watches (the bot restarted): re-attach, or settle it from what is left. */
    recover,
    /** Abort a start in progress and wait until it has given up (so nothing is spawned after a stop). */
    abortLaunch: (runId: string, reason: string) => abortLaunch(launching, runId, reason),
    isLaunching: (runId: string) => launching.has(runId),
    launchingIds: () => [...launching.keys()],
    busyCount: () => launching.size,
    forget: (runId: string) => supervisor.forget(runId),
    detachAll: () => {
      exits.detach();
      supervisor.detachAll();
    },
  };
}

export type LocalBackend = ReturnType<typeof createLocalBackend>;

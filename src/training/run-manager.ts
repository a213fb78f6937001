// A run's life, backend-neutral: create or queue, launch, stop, recover after a crash; backends do the processes.
import type { ChannelKey } from "../../db/channel-key.ts";
import type { ChannelsRepo } from "../../db/channels.ts";
import type { Db } from "../../db/open-database.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import type { RunActionsRepo } from "../../db/run-actions.ts";
import type { Component, RunProcessesRepo } from "../../db/run-processes.ts";
import type { RunRow, RunsRepo } from "../../db/runs.ts";
import type { SweepsRepo } from "../../db/sweeps.ts";
import type { Config } from "../config.ts";
import type { EnvironmentCatalog } from "../environments/resolution/catalog.ts";
import type { LockedFields } from "../locked-fields.ts";
import type { Logger } from "../log.ts";
import { wandbPagesOf } from "../metrics/wandb-group-link.ts";
import { createLocalBackend } from "./backends/local/local-backend.ts";
import type { RunBackend } from "./backends/run-backend.ts";
import { createSlurmBackend } from "./backends/slurm/slurm-backend.ts";
import { createComponentPlanner, logPathOf } from "./component-plan.ts";
import { createOwedActions } from "./lifecycle/owed-actions.ts";
import { createTransitions, LIVE_STATUSES } from "./lifecycle/transitions.ts";
import type { LocalSupervisor } from "./local-supervisor.ts";
import type { RunEventListener } from "./run-events.ts";
import { stackAddresses } from "./run-config.ts";
import { createRunPreparer } from "./run-manager/prepare-run.ts";
import { createRecovery } from "./run-manager/recover-runs.ts";
import { createShutdown } from "./run-manager/shut-down-runs.ts";
import { createQueueStarter } from "./run-manager/start-queued.ts";
import { createRunStarter } from "./run-manager/start-run.ts";
import { createRunStopper } from "./run-manager/stop-run.ts";
import { createSweeps } from "./run-manager/sweeps.ts";
import { delay } from "./wait-until.ts";

export { logPathOf };
export type { StartRequest } from "./run-manager/start-run.ts";
export type { SweepRequest } from "./run-manager/sweeps.ts";

export interface RunManagerDeps {
  config: Config;
  db: Db;
  locked: LockedFields;
  runs: RunsRepo;
  sweeps: SweepsRepo;
  processes: RunProcessesRepo;
  actions: RunActionsRepo;
  outbox: OutboxRepo;
  channels: ChannelsRepo;
  /** The environment a channel would start now (its selection, checked startable); errors say what to do. */
  startableEnvironment(channel: ChannelKey): Promise<{ name: string }>;
  catalog: EnvironmentCatalog;
  supervisor: LocalSupervisor;
  log: Logger;
  now: () => number;
  redact: (text: string) => string;
  processEnv?: NodeJS.ProcessEnv;
  /** How long an environment must stay alive to count as ready when it shows no traffic yet. */
  envSettleMs?: number;
}

export function createRunManager(deps: RunManagerDeps) {
  const { config, runs, log } = deps;
  const addresses = stackAddresses(deps.locked);
  const settleMs = deps.envSettleMs ?? 2000;
  const logPath = (runId: string, component: Component) => logPathOf(config, runId, component);
  const transitions = createTransitions({
    db: deps.db,
    runs,
    outbox: deps.outbox,
    actions: deps.actions,
    log,
    now: deps.now,
    redact: deps.redact,
    wandb: wandbPagesOf(config),
  });
  const plan = createComponentPlanner({
    config,
    catalog: deps.catalog,
    apiPort: addresses.apiPort,
    processEnv: deps.processEnv,
  });

  const owed = createOwedActions({
    actions: deps.actions,
    stopComponent: (runId, component) => local.stopComponent(runId, component),
    onSettled: (runId) => local.forget(runId),
    log,
    now: deps.now,
  });
  const local = createLocalBackend({
    config,
    runs,
    processes: deps.processes,
    supervisor: deps.supervisor,
    transitions,
    plan,
    addresses,
    logPath,
    carryOut: (runId) => owed.carryOut(runId),
    onEnded: () => startQueued(),
    log,
    now: deps.now,
    envSettleMs: settleMs,
  });
  const slurm = createSlurmBackend({
    config,
    runs,
    log,
    now: deps.now,
    plan,
    logPath,
    move: transitions.move,
    onEnded: () => startQueued(),
    addresses,
    envSettleMs: settleMs,
  });

  // A run stays on the backend recorded at its creation, whatever RL_BACKEND says now.
  const backends: Record<RunRow["backend"], RunBackend> = { local, slurm };
  const launch = (run: RunRow, progress?: (text: string) => Promise<void>): Promise<RunRow> =>
    backends[run.backend].launch(run, progress);
  const startQueued = createQueueStarter({ config, runs, transitions, launch, log });
  const prepare = createRunPreparer({ config, runs, locked: deps.locked });
  const stop = createRunStopper({ runs, transitions, backends, now: deps.now, startQueued });
  const sweeps = createSweeps({
    config,
    db: deps.db,
    runs,
    sweeps: deps.sweeps,
    transitions,
    prepare,
    launchArray: slurm.launchArray,
    startQueued,
    stop,
    log,
    now: deps.now,
  });
  const recovery = createRecovery({ runs, owed, backends, startQueued, log });

  return {
    onEvent: (listener: RunEventListener): (() => void) => transitions.onEvent(listener),
    start: createRunStarter({
      config,
      runs,
      channels: deps.channels,
      startableEnvironment: (channel) => deps.startableEnvironment(channel),
      transitions,
      prepare,
      launch,
    }),
    startSweep: sweeps.startSweep,
    stopSweep: sweeps.stopSweep,
    stop,
    /**
     * At start, as the one process that owns the data folder: finish what was left half-done, settle or re-attach
     * live runs, then start what is queued.
     */
    recover: recovery.recover,
    afterRecovery: recovery.afterRecovery,
    /** Bot shutdown: runs being started cannot finish without the bot and are stopped; running ones carry on. */
    shutdown: createShutdown({ local, transitions, owed, backends, now: deps.now }),
    isLive: (run: RunRow) => LIVE_STATUSES.includes(run.status),
    apiStatus: () => local.apiStatus(),
    logPath,
    /** A slurm run's job (state, pending reason, node) and its components' states from the job's status file. */
    slurmView: (run: RunRow) => slurm.view(run),
    /** Resolves when nothing is starting or stopping any more (tests). */
    async settled(): Promise<void> {
      while (Object.values(backends).some((b) => b.busyCount() > 0) || owed.busy() > 0) await delay(50);
    },
  };
}

export type RunManager = ReturnType<typeof createRunManager>;

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
import type { Logger } from "../log.ts";
import { wandbPagesOf } from "../metrics/wandb-group-link.ts";
import { createLocalBackend } from "./backends/local/local-backend.ts";
import type { RunBackend } from "./backends/run-backend.ts";
import { createSlurmBackend } from "./backends/slurm/slurm-backend.ts";
import { createOwedActions } from "./lifecycle/owed-actions.ts";
import { createTransitions, LIVE_STATUSES } from "./lifecycle/transitions.ts";
import type { LocalSupervisor } from "./local-supervisor.ts";
import type { RunEventListener } from "./run-events.ts";
import { logPathOf } from "../stacks/log-path.ts";
import type { StackRegistry } from "../stacks/stack-registry.ts";
import { createRunPreparer } from "./run-manager/prepare-run.ts";
import { createRecovery } from "./run-manager/recover-runs.ts";
import { createShutdown } from "./run-manager/shut-down-runs.ts";
import { createQueueStarter } from "./run-manager/start-queued.ts";
import { createRunStarter } from "./run-manager/start-run.ts";
import { createRunStopper } from "./run-manager/stop-run.ts";
import { createRunResumer } from "./run-manager/resume-run.ts";
import { createSweeps } from "./run-manager/sweeps.ts";
import { delay } from "./wait-until.ts";
import type { BudgetGate } from "../budgets/budget-gate.ts";
import type { NoticeRouter } from "../notify/notice-router.ts";

export type { StartRequest } from "./run-manager/start-run.ts";
export type { SweepRequest } from "./run-manager/sweeps.ts";

export interface RunManagerDeps {
  config: Config;
  db: Db;
  /** The bot's training stack, and the stack of each run. */
  stacks: StackRegistry;
  runs: RunsRepo;
  sweeps: SweepsRepo;
  processes: RunProcessesRepo;
  actions: RunActionsRepo;
  outbox: OutboxRepo;
  channels: ChannelsRepo;
  /** The environment a channel would start now (its selection, checked startable); errors say what to do. */
  startableEnvironment(channel: ChannelKey): Promise<{ name: string }>;
  supervisor: LocalSupervisor;
  log: Logger;
  now: () => number;
  redact: (text: string) => string;
  /** Spending limits per channel and person, checked as runs are created. */
  budgets?: BudgetGate;
  /** Where each kind of notice goes (/rl notify). */
  router?: NoticeRouter;
}

export function createRunManager(deps: RunManagerDeps) {
  const { config, runs, log, stacks } = deps;
  const logPath = (runId: string, component: Component) => logPathOf(config.logsDir, runId, component);
  const transitions = createTransitions({
    db: deps.db,
    runs,
    outbox: deps.outbox,
    actions: deps.actions,
    log,
    now: deps.now,
    redact: deps.redact,
    wandb: wandbPagesOf(config),
    stopOrderOf: (run) => stacks.of(run).stopOrder,
    router: deps.router,
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
    stacks,
    logPath,
    carryOut: (runId) => owed.carryOut(runId),
    onEnded: () => startQueued(),
    log,
    now: deps.now,
  });
  const slurm = createSlurmBackend({
    config,
    runs,
    log,
    now: deps.now,
    stacks,
    logPath,
    move: transitions.move,
    onEnded: () => startQueued(),
  });

  // A run stays on the backend recorded at its creation, whatever RL_BACKEND says now.
  const backends: Record<RunRow["backend"], RunBackend> = { local, slurm };
  const launch = (run: RunRow, progress?: (text: string) => Promise<void>): Promise<RunRow> =>
    backends[run.backend].launch(run, progress);
  const shutdown = createShutdown({ local, transitions, owed, backends, now: deps.now });
  const startQueuedNow = createQueueStarter({ config, runs, transitions, launch, log });
  // Once the bot is shutting down, queued runs stay queued for the next bot: a run started now could not finish.
  const startQueued = (): void => {
    if (!shutdown.isClosing()) startQueuedNow();
  };
  const prepare = createRunPreparer({ runs, stack: stacks.current });
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
    budgets: deps.budgets,
  });
  const resume = createRunResumer({
    config,
    runs,
    stacks,
    transitions,
    beforeRelaunch: (run) => (run.backend === "slurm" ? slurm.beforeRelaunch(run) : undefined),
    launch,
    now: deps.now,
    budgets: deps.budgets,
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
      isClosing: shutdown.isClosing,
      budgets: deps.budgets,
    }),
    /** Continue a stopped, failed or lost run from its last checkpoint, as the same run. */
    resume,
    startSweep: sweeps.startSweep,
    stopSweep: sweeps.stopSweep,
    stop,
    /**
     * At start, as the one process that owns the data folder: finish what was left half-done, settle or re-attach
     * live runs, then start what is queued.
     */
    recover: recovery.recover,
    afterRecovery: recovery.afterRecovery,
    /** Resolves the training Python (a shim's interpreter) once, as the bot starts; local runs spawn the answer. */
    warmUp: async (): Promise<void> => {
      await local.warmUp();
    },
    /**
     * The first step of the bot's shutdown, taken as its inputs close: no run starts any more, and the starts in
     * progress are stopped (they cannot finish without the bot), so no command in flight waits on one.
     */
    stopStarts: shutdown.stopStarts,
    /** Bot shutdown: runs being started cannot finish without the bot and are stopped; running ones carry on. */
    shutdown: shutdown.shutdown,
    isLive: (run: RunRow) => LIVE_STATUSES.includes(run.status),
    /** A live run's trajectory API status, when its stack has one. */
    apiStatus: (run: RunRow) => stacks.of(run).apiStatus?.(),
    logPath,
    /** The stack new runs start on (RL_STACK). */
    currentStack: stacks.current,
    /** The training stack a run belongs to. */
    stackOf: (run: Pick<RunRow, "id" | "stack">) => stacks.of(run),
    /** A run's progress (steps, reward, loss, step errors), read where its stack writes it. */
    progress: (run: RunRow) => stacks.of(run).readProgress(run),
    /** A run's saved checkpoints, oldest first, read where its stack records them. */
    checkpoints: (run: RunRow) => stacks.of(run).readCheckpoints(run),
    /** A slurm run's job (state, pending reason, node) and its components' states from the job's status file. */
    slurmView: (run: RunRow) => slurm.view(run),
    /** Resolves when nothing is starting or stopping any more (tests). */
    async settled(): Promise<void> {
      while (Object.values(backends).some((b) => b.busyCount() > 0) || owed.busy() > 0) await delay(50);
    },
  };
}

export type RunManager = ReturnType<typeof createRunManager>;

// A run's life, backend-neutral: create or queue, launch, stop, recover after a crash; backends do the processes.
import { randomBytes } from "node:crypto";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { ChannelsRepo, ConfigValues } from "../../db/channels.ts";
import type { Db } from "../../db/open-database.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import type { RunActionsRepo } from "../../db/run-actions.ts";
import type { Component, RunProcessesRepo } from "../../db/run-processes.ts";
import type { RunPatch, RunRow, RunsRepo } from "../../db/runs.ts";
import type { SweepRow, SweepsRepo } from "../../db/sweeps.ts";
import type { Config } from "../config.ts";
import type { EnvironmentCatalog } from "../environments/resolution/catalog.ts";
import { RlError } from "../errors.ts";
import type { LockedFields } from "../locked-fields.ts";
import type { Logger } from "../log.ts";
import { createLocalBackend } from "./backends/local/local-backend.ts";
import type { RunBackend } from "./backends/run-backend.ts";
import { createComponentPlanner, logPathOf } from "./component-plan.ts";
import { createOwedActions } from "./lifecycle/owed-actions.ts";
import { createTransitions, LIVE_STATUSES, STOP_ORDER } from "./lifecycle/transitions.ts";
import type { LocalSupervisor } from "./local-supervisor.ts";
import type { RunEventListener } from "./run-events.ts";
import { wandbPagesOf } from "../metrics/wandb-group-link.ts";
import { buildRunConfig, runNames, stackAddresses, writeRunConfig } from "./run-config.ts";
import { createSlurmBackend } from "./backends/slurm/slurm-backend.ts";
import { delay } from "./wait-until.ts";

export { logPathOf };

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

export interface StartRequest {
  channel: ChannelKey;
  thread?: string;
  userId: string;
  progress?: (text: string) => Promise<void>;
  /** A rerun's environment and values instead of the channel's selection and config (already checked by applyChanges). */
  from?: { environment: string; values: ConfigValues };
}

export interface SweepRequest {
  channel: ChannelKey;
  thread?: string;
  userId: string;
  environment: string;
  grid: SweepRow["grid"];
  /** Each run's values (the channel's config with one combination applied), already checked by applyChanges. */
  combinations: ConfigValues[];
}

export function createRunManager(deps: RunManagerDeps) {
  const { config, runs, log } = deps;
  const addresses = stackAddresses(deps.locked);
  const settleMs = deps.envSettleMs ?? 2000;
  const logPath = (runId: string, component: Component) => logPathOf(config, runId, component);
  const wandb = wandbPagesOf(config);
  const transitions = createTransitions({
    db: deps.db,
    runs,
    outbox: deps.outbox,
    actions: deps.actions,
    log,
    now: deps.now,
    redact: deps.redact,
    wandb,
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

  function startQueued(): void {
    for (;;) {
      if (runs.countByStatus(LIVE_STATUSES) >= config.maxConcurrentRuns) return;
      const next = runs.listByStatus(["queued"])[0];
      if (!next) return;
      const run = transitions.move(next.id, ["queued"], { status: "starting" });
      if (!run) continue;
      log.info("starting a queued run", { runId: run.id });
      void launch(run).catch((err: unknown) => log.error("queued launch failed", { runId: run.id, err }));
    }
  }

  const afterRecovery: Array<() => Promise<void>> = [];

  function checkKeys(): void {
    if (!config.isDemoStack && !config.keys.tinker) {
      throw new RlError(
        "MISSING_KEYS",
        "Training needs TINKER_API_KEY. Set it in the bot's environment and restart the bot.",
        {
          details: { missing: ["TINKER_API_KEY"] },
        },
      );
    }
  }

  /** A new run's id, written run config and names; the run itself is created by the caller. */
  function prepare(environment: string, values: ConfigValues): { id: string; patch: RunPatch } {
    const id = newRunId();
    const names = runNames(environment, id, config.wandb.project);
    const runConfig = buildRunConfig({
      runId: id,
      environment,
      values,
      locked: deps.locked,
      wandbProject: config.wandb.project,
    });
    const configPath = writeRunConfig(config.runConfigsDir, id, runConfig, config.secrets);
    const totalSteps = typeof runConfig.env.total_steps === "number" ? runConfig.env.total_steps : undefined;
    return { id, patch: { configPath, totalSteps, ...names } };
  }

  /** Sweep ids start with "s", which no run id (hex) does, so one word names either. */
  function newSweepId(): string {
    for (;;) {
      const id = `s${randomBytes(4).toString("hex").slice(1)}`;
      if (!deps.sweeps.get(id)) return id;
    }
  }

  function newRunId(): string {
    for (;;) {
      const id = randomBytes(4).toString("hex");
      if (!runs.get(id)) return id;
    }
  }

  const manager = {
    onEvent: (listener: RunEventListener): (() => void) => transitions.onEvent(listener),

    /** Create a run from the channel's selection and config; launch it now or queue it. Resolves once it is running, failed or queued. */
    async start(request: StartRequest): Promise<RunRow> {
      const environment = request.from
        ? request.from.environment
        : (await deps.startableEnvironment(request.channel)).name;
      checkKeys();
      const values = request.from?.values ?? deps.channels.configValues(request.channel, environment);
      const prepared = prepare(environment, values);
      const queued =
        runs.countByStatus(LIVE_STATUSES) >= config.maxConcurrentRuns || runs.countByStatus(["queued"]) > 0;
      const run = transitions.create(
        {
          id: prepared.id,
          channel: request.channel,
          thread: request.thread,
          environment,
          config: values,
          status: queued ? "queued" : "starting",
          createdBy: request.userId,
          backend: config.backend,
        },
        prepared.patch,
        queued
          ? {
              notice: {
                kind: "queued",
                message: `Run ${prepared.id} is queued: another run is using the training ports.`,
              },
            }
          : {},
      );
      if (queued) return run;
      return launch(run, request.progress);
    },

    /**
     * A sweep: its record and one queued run per combination, committed together, then started in turn as the queue
     * allows. Queued sweep runs owe no notice each: the sweep's own reply lists them.
     */
    async startSweep(request: SweepRequest): Promise<{ sweep: SweepRow; runs: RunRow[] }> {
      checkKeys();
      const sweepId = newSweepId();
      const prepared = request.combinations.map((values) => ({ values, ...prepare(request.environment, values) }));
      // On Slurm the sweep is one job array the cluster schedules: its runs are submitted together, not queued here.
      const status = config.backend === "slurm" ? "starting" : "queued";
      const create = deps.db.transaction(() => {
        const sweep = deps.sweeps.insert({
          id: sweepId,
          channel: request.channel,
          thread: request.thread,
          environment: request.environment,
          grid: request.grid,
          createdBy: request.userId,
        });
        for (const p of prepared) {
          transitions.create(
            {
              id: p.id,
              channel: request.channel,
              thread: request.thread,
              environment: request.environment,
              config: p.values,
              status,
              createdBy: request.userId,
              backend: config.backend,
              sweepId,
            },
            p.patch,
          );
        }
        return sweep;
      });
      const sweep = create.immediate();
      log.info("sweep created", { sweepId, runs: prepared.length, backend: config.backend });
      if (config.backend === "slurm")
        return { sweep, runs: await slurm.launchArray(sweepId, runs.listBySweep(sweepId)) };
      startQueued();
      return { sweep, runs: runs.listBySweep(sweepId) };
    },

    /** Stop a whole sweep: its queued runs are cancelled first (so none starts in between), then its live runs stopped. */
    async stopSweep(sweepId: string, by: string): Promise<RunRow[]> {
      const members = runs.listBySweep(sweepId);
      for (const run of members.filter((r) => r.status === "queued")) {
        transitions.move(
          run.id,
          ["queued"],
          { status: "stopped", stoppedBy: by, endedAt: deps.now() },
          { notice: { kind: "stopped", message: `Queued run ${run.id} of sweep ${sweepId} was cancelled by ${by}.` } },
        );
      }
      for (const run of runs.listBySweep(sweepId).filter((r) => r.status === "starting" || r.status === "running")) {
        await manager
          .stop(run.id, by)
          .catch((err: unknown) => log.warn("stopping a sweep run failed", { sweepId, runId: run.id, err }));
      }
      return runs.listBySweep(sweepId);
    },

    async stop(runId: string, by: string): Promise<RunRow> {
      const run = runs.get(runId);
      if (!run) throw new RlError("NOT_FOUND", `No run "${runId}". See /rl runs.`);
      if (run.status === "queued") {
        const cancelled = transitions.move(
          runId,
          ["queued"],
          { status: "stopped", stoppedBy: by, endedAt: deps.now() },
          { notice: { kind: "stopped", message: `Queued run ${runId} was cancelled by ${by}.` } },
        );
        if (cancelled) return cancelled;
      }
      const backend = backends[run.backend];
      const stopping = transitions.move(
        runId,
        ["starting", "running"],
        { status: "stopping", stoppedBy: by },
        backend.owesStops ? { owe: STOP_ORDER } : {},
      );
      if (!stopping) {
        const now = runs.get(runId)!;
        throw new RlError("CONFLICT", `Run ${runId} is not running (it is ${now.status}).`);
      }
      await backend.stop(stopping);
      transitions.move(
        runId,
        ["stopping"],
        { status: "stopped", endedAt: deps.now() },
        { notice: { kind: "stopped", message: `Run ${runId} was stopped by ${by}.` } },
      );
      startQueued();
      return runs.get(runId)!;
    },

    /**
     * At start, as the one process that owns the data folder: finish every transition left half-done (stop what a
     * terminal run still owes), settle or re-attach live runs, then start what is queued. Owed notices are already in
     * the outbox and go out once a platform is connected.
     */
    async recover(): Promise<void> {
      await owed.carryOutAll();
      for (const run of runs.listByStatus(LIVE_STATUSES)) {
        await backends[run.backend]
          .recover(run)
          .catch((err: unknown) => log.error("recovery failed", { runId: run.id, err }));
      }
      startQueued();
      for (const task of afterRecovery)
        await task().catch((err: unknown) => log.error("a task after recovery failed", { err }));
    },

    /** Work that belongs after recovery (a finished sweep's comparison still owed), in the order added. */
    afterRecovery(task: () => Promise<void>): void {
      afterRecovery.push(task);
    },

    /** Bot shutdown: runs being started cannot finish without the bot and are stopped; running ones carry on. */
    async shutdown(): Promise<void> {
      for (const runId of local.launchingIds()) {
        const run = transitions.move(
          runId,
          ["starting"],
          { status: "stopping", stoppedBy: "bot shutdown" },
          { owe: STOP_ORDER },
        );
        if (!run) continue;
        await local.abortLaunch(runId, "the bot is shutting down");
        await owed.carryOut(runId);
        transitions.move(
          runId,
          ["stopping"],
          { status: "stopped", endedAt: deps.now() },
          {
            notice: { kind: "stopped", message: `Run ${runId} was stopped: the bot shut down while it was starting.` },
          },
        );
      }
      await owed.idle();
      for (const backend of Object.values(backends)) backend.detachAll();
    },

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
  return manager;
}

export type RunManager = ReturnType<typeof createRunManager>;

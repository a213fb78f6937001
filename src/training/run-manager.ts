// A run's life, backend-neutral: create or queue, launch, stop, recover after a crash; backends do the processes.
import { randomBytes } from "node:crypto";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { ChannelsRepo, ConfigValues } from "../../db/channels.ts";
import type { Db } from "../../db/open-database.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import type { RunActionsRepo } from "../../db/run-actions.ts";
import type { Component, RunProcessesRepo } from "../../db/run-processes.ts";
import type { RunRow, RunsRepo } from "../../db/runs.ts";
import type { Config } from "../config.ts";
import type { EnvironmentOps } from "../environment-ops.ts";
import type { EnvironmentCatalog } from "../environments/catalog.ts";
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
import { resolveWandbAppUrl } from "../metrics/wandb-url.ts";
import { buildRunConfig, runNames, stackAddresses, writeRunConfig } from "./run-config.ts";
import { createSlurmBackend } from "./backends/slurm/slurm-backend.ts";
import { delay } from "./wait-until.ts";

export { logPathOf };

export interface RunManagerDeps {
  config: Config;
  db: Db;
  locked: LockedFields;
  runs: RunsRepo;
  processes: RunProcessesRepo;
  actions: RunActionsRepo;
  outbox: OutboxRepo;
  channels: ChannelsRepo;
  env: EnvironmentOps;
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

export function createRunManager(deps: RunManagerDeps) {
  const { config, runs, log } = deps;
  const addresses = stackAddresses(deps.locked);
  const settleMs = deps.envSettleMs ?? 2000;
  const logPath = (runId: string, component: Component) => logPathOf(config, runId, component);
  const wandb = { appUrl: resolveWandbAppUrl(config.wandb.baseUrl, config.wandb.appUrl), ...(config.wandb.entity ? { entity: config.wandb.entity } : {}) };
  const transitions = createTransitions({ db: deps.db, runs, outbox: deps.outbox, actions: deps.actions, log, now: deps.now, redact: deps.redact, wandb });
  const plan = createComponentPlanner({ config, catalog: deps.catalog, apiPort: addresses.apiPort, processEnv: deps.processEnv });

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
  const launch = (run: RunRow, progress?: (text: string) => Promise<void>): Promise<RunRow> => backends[run.backend].launch(run, progress);

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

  function newRunId(): string {
    for (;;) {
      const id = randomBytes(4).toString("hex");
      if (!runs.get(id)) return id;
    }
  }

  return {
    onEvent: (listener: RunEventListener): (() => void) => transitions.onEvent(listener),

    /** Create a run from the channel's selection and config; launch it now or queue it. Resolves once it is running, failed or queued. */
    async start(request: StartRequest): Promise<RunRow> {
      const environment = request.from ? { name: request.from.environment } : await deps.env.selectedEnvironment(request.channel);
      if (!config.isDemoStack && !config.keys.tinker) {
        throw new RlError("MISSING_KEYS", "Training needs TINKER_API_KEY. Set it in the bot's environment and restart the bot.", {
          details: { missing: ["TINKER_API_KEY"] },
        });
      }
      const id = newRunId();
      const values = request.from?.values ?? deps.channels.configValues(request.channel, environment.name);
      const names = runNames(environment.name, id, config.wandb.project);
      const runConfig = buildRunConfig({ runId: id, environment: environment.name, values, locked: deps.locked, wandbProject: config.wandb.project });
      const configPath = writeRunConfig(config.runConfigsDir, id, runConfig, config.secrets);
      const totalSteps = typeof runConfig.env.total_steps === "number" ? runConfig.env.total_steps : undefined;
      const queued = runs.countByStatus(LIVE_STATUSES) >= config.maxConcurrentRuns || runs.countByStatus(["queued"]) > 0;
      const run = transitions.create(
        { id, channel: request.channel, thread: request.thread, environment: environment.name, config: values, status: queued ? "queued" : "starting", createdBy: request.userId, backend: config.backend },
        { configPath, totalSteps, ...names },
        queued ? { notice: { kind: "queued", message: `Run ${id} is queued: another run is using the training ports.` } } : {},
      );
      if (queued) return run;
      return launch(run, request.progress);
    },

    async stop(runId: string, by: string): Promise<RunRow> {
      const run = runs.get(runId);
      if (!run) throw new RlError("NOT_FOUND", `No run "${runId}". See /rl runs.`);
      if (run.status === "queued") {
        const cancelled = transitions.move(runId, ["queued"], { status: "stopped", stoppedBy: by, endedAt: deps.now() }, { notice: { kind: "stopped", message: `Queued run ${runId} was cancelled by ${by}.` } });
        if (cancelled) return cancelled;
      }
      const backend = backends[run.backend];
      const stopping = transitions.move(runId, ["starting", "running"], { status: "stopping", stoppedBy: by }, backend.owesStops ? { owe: STOP_ORDER } : {});
      if (!stopping) {
        const now = runs.get(runId)!;
        throw new RlError("CONFLICT", `Run ${runId} is not running (it is ${now.status}).`);
      }
      await backend.stop(stopping);
      transitions.move(runId, ["stopping"], { status: "stopped", endedAt: deps.now() }, { notice: { kind: "stopped", message: `Run ${runId} was stopped by ${by}.` } });
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
        await backends[run.backend].recover(run).catch((err: unknown) => log.error("recovery failed", { runId: run.id, err }));
      }
      startQueued();
    },

    /** Bot shutdown: runs being started cannot finish without the bot and are stopped; running ones carry on. */
    async shutdown(): Promise<void> {
      for (const runId of local.launchingIds()) {
        const run = transitions.move(runId, ["starting"], { status: "stopping", stoppedBy: "bot shutdown" }, { owe: STOP_ORDER });
        if (!run) continue;
        await local.abortLaunch(runId, "the bot is shutting down");
        await owed.carryOut(runId);
        transitions.move(runId, ["stopping"], { status: "stopped", endedAt: deps.now() }, { notice: { kind: "stopped", message: `Run ${runId} was stopped: the bot shut down while it was starting.` } });
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
}

export type RunManager = ReturnType<typeof createRunManager>;

// A run's life: create (queue when the ports are taken), launch with readiness probes, watch, decide, stop, recover.
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { ChannelsRepo } from "../../db/channels.ts";
import { COMPONENTS, type Component, type RunProcessesRepo } from "../../db/run-processes.ts";
import type { RunRow, RunsRepo, RunStatus } from "../../db/runs.ts";
import type { Config } from "../config.ts";
import type { EnvironmentOps } from "../environment-ops.ts";
import type { EnvironmentCatalog } from "../environments/catalog.ts";
import { RlError, asRlError } from "../errors.ts";
import type { LockedFields } from "../locked-fields.ts";
import type { Logger } from "../log.ts";
import { readTailBytes, readTailLines } from "../metrics/log-tail.ts";
import { parseTrainerLog } from "../metrics/trainer-log.ts";
import { childEnv } from "./child-env.ts";
import type { ExitInfo, LocalSupervisor, SpawnPlan } from "./local-supervisor.ts";
import { isSameProcess } from "./process-info.ts";
import type { RunEvent, RunEventListener } from "./run-events.ts";
import { buildRunConfig, runNames, stackAddresses, writeRunConfig } from "./run-config.ts";
import { createSlurmBackend } from "./slurm/slurm-backend.ts";
import { delay, httpAnswers, waitUntil } from "./wait-until.ts";

export interface RunManagerDeps {
  config: Config;
  locked: LockedFields;
  runs: RunsRepo;
  processes: RunProcessesRepo;
  channels: ChannelsRepo;
  env: EnvironmentOps;
  catalog: EnvironmentCatalog;
  supervisor: LocalSupervisor;
  log: Logger;
  now: () => number;
  processEnv?: NodeJS.ProcessEnv;
  /** How long an environment must stay alive to count as ready when it shows no traffic yet. */
  envSettleMs?: number;
}

export interface StartRequest {
  channel: ChannelKey;
  thread?: string;
  userId: string;
  progress?: (text: string) => Promise<void>;
}

const STOP_ORDER: readonly Component[] = ["env", "trainer", "api"];
const LIVE: readonly RunStatus[] = ["starting", "running", "stopping"];
const LOG_TAIL_LINES = 15;

export function logPathOf(config: Config, runId: string, component: Component): string {
  return path.join(config.logsDir, `${component}_${runId}.log`);
}

export function createRunManager(deps: RunManagerDeps) {
  const { config, runs, processes, supervisor, log } = deps;
  const listeners = new Set<RunEventListener>();
  const launching = new Map<string, AbortController>();
  const addresses = stackAddresses(deps.locked);
  const settleMs = deps.envSettleMs ?? 2000;

  const emit = (event: RunEvent) => {
    for (const l of listeners) {
      try {
        l(event);
      } catch (err) {
        log.error("run event listener failed", { err, kind: event.kind, runId: event.run.id });
      }
    }
  };

  // Runs on the slurm backend (run.backend, recorded at creation) are handed to it whatever RL_BACKEND says now.
  const slurm = createSlurmBackend({
    config,
    runs,
    log,
    now: deps.now,
    plan: (run, component) => planFor(run, component),
    logPath: (runId, component) => logPathOf(config, runId, component),
    emit,
    onEnded: () => startQueued(),
    addresses,
    envSettleMs: settleMs,
  });

  const tail = (runId: string, component: Component) => readTailLines(logPathOf(config, runId, component), LOG_TAIL_LINES);

  async function planFor(run: RunRow, component: Component): Promise<SpawnPlan> {
    const base = { cwd: config.trainingRoot, logPath: logPathOf(config, run.id, component), component };
    const keys = { WANDB_API_KEY: config.keys.wandb };
    const processEnv = deps.processEnv ?? process.env;
    if (component === "api") {
      const [command, ...args] = config.apiCommand;
      return { ...base, command: command!, args: [...args, "--host", "127.0.0.1", "--port", String(addresses.apiPort)], env: childEnv(processEnv, config.trainingRoot, {}) };
    }
    if (component === "trainer") {
      const [command, ...args] = config.trainerCommand;
      return {
        ...base,
        command: command!,
        args: [...args, "--config", run.configPath!],
        env: childEnv(processEnv, config.trainingRoot, { ...keys, TINKER_API_KEY: config.keys.tinker }),
      };
    }
    const info = await deps.catalog.get(run.environment);
    return { ...base, command: config.python, args: [info.filePath, "serve", "--config", run.configPath!], env: childEnv(processEnv, config.trainingRoot, keys) };
  }

  async function apiStatus(): Promise<{ current_step: number; queue_size: number } | undefined> {
    try {
      const res = await fetch(`${addresses.apiUrl}/status`, { signal: AbortSignal.timeout(1500) });
      if (!res.ok) return undefined;
      return (await res.json()) as { current_step: number; queue_size: number };
    } catch {
      return undefined;
    }
  }

  function readiness(component: Component, startedAt: number): () => Promise<boolean> {
    if (component === "api") return () => httpAnswers(`${addresses.apiUrl}/`);
    if (component === "trainer") return () => httpAnswers(`${addresses.trainerUrl}/health`);
    // The environment is ready once it sends data, or has stayed alive through a short settle period.
    return async () => {
      const s = await apiStatus();
      if (s && (s.queue_size > 0 || s.current_step > 0)) return true;
      return deps.now() - startedAt >= settleMs;
    };
  }

  function watch(runId: string, component: Component) {
    supervisor.exited(runId, component).then(
      (info) => onExit(runId, component, info),
      (err: unknown) => log.error("exit watcher failed", { runId, component, err }),
    );
  }

  function describeExit(component: Component, info: ExitInfo): string {
    if (info.spawnError) return `${component} could not start: ${info.spawnError}`;
    if (info.signal) return `${component} was killed by ${info.signal}`;
    if (info.exitCode === undefined) return `${component} exited (exit code unknown: it was started by an earlier bot process)`;
    return `${component} exited with code ${info.exitCode}`;
  }

  async function onExit(runId: string, component: Component, info: ExitInfo): Promise<void> {
    const run = runs.get(runId);
    if (!run) return;
    if (run.status === "starting") {
      launching.get(runId)?.abort(new RlError("PROCESS_FAILED", `${describeExit(component, info)} while the run was starting.`, { details: { component, exitCode: info.exitCode } }));
      return;
    }
    if (run.status !== "running") return;
    const clean = info.exitCode === 0 || (info.exitCode === undefined && !info.signal && !info.spawnError);
    if (component === "env" && clean) {
      log.info("environment finished; waiting for the trainer", { runId });
      return;
    }
    if (component === "trainer" && clean) {
      const progress = parseTrainerLog(await readTailBytes(logPathOf(config, runId, "trainer"), 4 * 1024 * 1024));
      if (progress.stepErrors.length > 0) {
        return fail(runId, "trainer", `The trainer reported a step error and stopped: ${progress.stepErrors.at(-1)}`, info);
      }
      if (info.exitCode === 0 || progress.completed) return complete(runId);
    }
    return fail(runId, component, `${describeExit(component, info)}.`, info);
  }

  async function stopComponents(runId: string): Promise<void> {
    for (const component of STOP_ORDER) await supervisor.stopComponent(runId, component);
  }

  async function fail(runId: string, component: Component, message: string, info?: ExitInfo): Promise<void> {
    const run = runs.transition(runId, ["starting", "running"], { status: "failed", error: message, failedComponent: component, endedAt: deps.now() });
    if (!run) return;
    log.warn("run failed", { runId, component, message });
    await stopComponents(runId);
    emit({ kind: "failed", run, component, exitCode: info?.exitCode, signal: info?.signal, logTail: await tail(runId, component), message });
    supervisor.forget(runId);
    startQueued();
  }

  async function complete(runId: string): Promise<void> {
    const run = runs.transition(runId, ["running"], { status: "completed", endedAt: deps.now() });
    if (!run) return;
    await stopComponents(runId);
    const progress = parseTrainerLog(await readTailBytes(logPathOf(config, runId, "trainer"), 4 * 1024 * 1024));
    const weights = progress.finalWeights ? ` Final weights: ${progress.finalWeights}` : "";
    emit({ kind: "completed", run, message: `Training complete after ${progress.step ?? "?"} steps; reward mean ${progress.rewardMean ?? "?"}.${weights}` });
    supervisor.forget(runId);
    startQueued();
  }

  async function launch(run: RunRow, progress?: (text: string) => Promise<void>): Promise<RunRow> {
    if (run.backend === "slurm") return slurm.launch(run, progress);
    const abort = new AbortController();
    launching.set(run.id, abort);
    let component: Component = "api";
    try {
      for (component of COMPONENTS) {
        const plan = await planFor(run, component);
        const startedAt = deps.now();
        supervisor.spawn(run.id, plan);
        watch(run.id, component);
        await waitUntil(readiness(component, startedAt), { what: `The ${component}`, timeoutMs: config.readyTimeoutMs, signal: abort.signal });
        processes.markReady(run.id, component);
        await progress?.(`${component} is ready`).catch(() => undefined);
      }
      const running = runs.transition(run.id, ["starting"], { status: "running", startedAt: deps.now() });
      if (running) emit({ kind: "started", run: running, message: `Run ${run.id} of ${run.environment} is running.` });
      return runs.get(run.id)!;
    } catch (thrown) {
      const err = asRlError(thrown);
      const failedComponent = (err.details.component as Component | undefined) ?? component;
      await fail(run.id, failedComponent, err.message);
      return runs.get(run.id)!;
    } finally {
      launching.delete(run.id);
    }
  }

  function startQueued(): void {
    for (;;) {
      if (runs.countByStatus(LIVE) >= config.maxConcurrentRuns) return;
      const next = runs.listByStatus(["queued"])[0];
      if (!next) return;
      const run = runs.transition(next.id, ["queued"], { status: "starting" });
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

  /** Bring a run this process does not watch up to date: re-attach, or decide its outcome from what is left. */
  async function reconcile(run: RunRow, watchIt: boolean): Promise<RunRow> {
    if (run.backend === "slurm") return LIVE.includes(run.status) ? slurm.reconcile(run, watchIt) : run;
    if (!LIVE.includes(run.status) || supervisor.isTracked(run.id) || launching.has(run.id)) return run;
    const rows = processes.list(run.id);
    const alive = rows.filter((p) => p.state !== "exited");
    const allOurs = alive.length > 0 && alive.every((p) => isSameProcess(p.pid, p.startTime));
    if (run.status === "running" && allOurs) {
      if (!watchIt) return run;
      for (const p of alive) {
        supervisor.attach(p);
        watch(run.id, p.component);
      }
      log.info("re-attached to a running run", { runId: run.id });
      return run;
    }
    // Whatever is still ours gets stopped; a reused pid is another process and is left alone.
    for (const p of [...alive].reverse()) {
      if (isSameProcess(p.pid, p.startTime)) {
        supervisor.attach(p);
        await supervisor.stopComponent(run.id, p.component);
      } else processes.markExited(run.id, p.component, undefined, undefined, deps.now());
    }
    supervisor.forget(run.id);
    if (run.status === "stopping") {
      const stopped = runs.transition(run.id, ["stopping"], { status: "stopped", endedAt: deps.now() });
      if (stopped) emit({ kind: "stopped", run: stopped, message: `Run ${run.id} stopped.` });
      return runs.get(run.id)!;
    }
    const trainer = parseTrainerLog(await readTailBytes(logPathOf(config, run.id, "trainer"), 4 * 1024 * 1024));
    if (run.status === "running" && trainer.completed && trainer.stepErrors.length === 0) {
      const done = runs.transition(run.id, ["running"], { status: "completed", endedAt: deps.now() });
      if (done) emit({ kind: "completed", run: done, message: `Training complete after ${trainer.step ?? "?"} steps (finished while the bot was away).` });
      return runs.get(run.id)!;
    }
    const gone = alive.filter((p) => !isSameProcess(p.pid, p.startTime)).map((p) => p.component);
    const message =
      run.status === "starting"
        ? "The bot restarted while this run was starting; its processes were stopped."
        : `The bot lost track of this run: ${gone.join(", ") || "its processes"} ended or were replaced while the bot was not running.`;
    const lost = runs.transition(run.id, [run.status], { status: "lost", error: message, endedAt: deps.now() });
    if (lost) emit({ kind: "lost", run: lost, message });
    return runs.get(run.id)!;
  }

  return {
    onEvent(listener: RunEventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Create a run from the channel's selection and config; launch it now or queue it. Resolves once it is running, failed or queued. */
    async start(request: StartRequest): Promise<RunRow> {
      const environment = await deps.env.selectedEnvironment(request.channel);
      if (!config.isDemoStack && !config.keys.tinker) {
        throw new RlError("MISSING_KEYS", "Training needs TINKER_API_KEY. Set it in the bot's environment and restart the bot.", {
          details: { missing: ["TINKER_API_KEY"] },
        });
      }
      const id = newRunId();
      const values = deps.channels.configValues(request.channel, environment.name);
      const names = runNames(environment.name, id, config.wandb.project);
      const runConfig = buildRunConfig({ runId: id, environment: environment.name, values, locked: deps.locked, wandbProject: config.wandb.project });
      const configPath = writeRunConfig(config.runConfigsDir, id, runConfig, config.secrets);
      const totalSteps = typeof runConfig.env.total_steps === "number" ? runConfig.env.total_steps : undefined;
      const queued = runs.countByStatus(LIVE) >= config.maxConcurrentRuns || runs.countByStatus(["queued"]) > 0;
      runs.insert({
        id,
        channel: request.channel,
        thread: request.thread,
        environment: environment.name,
        config: values,
        status: queued ? "queued" : "starting",
        createdBy: request.userId,
        backend: config.backend,
      });
      const run = runs.update(id, { configPath, totalSteps, ...names });
      if (queued) {
        emit({ kind: "queued", run, message: `Run ${id} is queued: another run is using the training ports.` });
        return run;
      }
      return launch(run, request.progress);
    },

    async stop(runId: string, by: string): Promise<RunRow> {
      const found = runs.get(runId);
      if (!found) throw new RlError("NOT_FOUND", `No run "${runId}". See /rl runs.`);
      const run = await reconcile(found, false);
      if (run.status === "queued") {
        const stopped = runs.transition(runId, ["queued"], { status: "stopped", stoppedBy: by, endedAt: deps.now() });
        if (stopped) emit({ kind: "stopped", run: stopped, message: `Queued run ${runId} was cancelled by ${by}.` });
        return runs.get(runId)!;
      }
      const stopping = runs.transition(runId, ["starting", "running"], { status: "stopping", stoppedBy: by });
      if (!stopping) throw new RlError("CONFLICT", `Run ${runId} is not running (it is ${run.status}).`);
      launching.get(runId)?.abort(new RlError("PROCESS_FAILED", "stopped"));
      if (run.backend === "slurm") await slurm.stop(stopping);
      else {
        if (!supervisor.isTracked(runId)) for (const p of processes.list(runId)) if (p.state !== "exited" && isSameProcess(p.pid, p.startTime)) supervisor.attach(p);
        await stopComponents(runId);
        supervisor.forget(runId);
      }
      const stopped = runs.transition(runId, ["stopping"], { status: "stopped", endedAt: deps.now() });
      if (stopped) emit({ kind: "stopped", run: stopped, message: `Run ${runId} was stopped by ${by}.` });
      startQueued();
      return runs.get(runId)!;
    },

    reconcile,

    /** At bot start: re-attach to live runs, settle the rest, then start what is queued. */
    async recover(): Promise<void> {
      for (const run of runs.listByStatus(LIVE)) {
        await reconcile(run, true).catch((err: unknown) => log.error("recovery failed", { runId: run.id, err }));
      }
      startQueued();
    },

    /** Bot shutdown: runs being started cannot finish without the bot and are stopped; running ones carry on. */
    async shutdown(): Promise<void> {
      for (const runId of [...launching.keys()]) {
        const run = runs.transition(runId, ["starting"], { status: "stopping", stoppedBy: "bot shutdown" });
        launching.get(runId)?.abort(new RlError("PROCESS_FAILED", "the bot is shutting down"));
        if (run) {
          await stopComponents(runId);
          runs.transition(runId, ["stopping"], { status: "stopped", endedAt: deps.now() });
        }
      }
      supervisor.detachAll();
      slurm.detachAll();
    },

    isLive: (run: RunRow) => LIVE.includes(run.status),
    apiStatus,
    logPath: (runId: string, component: Component) => logPathOf(config, runId, component),
    /** A slurm run's job (state, pending reason, node) and its components' states from the job's status file. */
    slurmView: (run: RunRow) => slurm.view(run),
    /** Resolves when nothing is starting any more (tests). */
    async settled(): Promise<void> {
      while (launching.size > 0 || slurm.busyCount() > 0) await delay(50);
    },
  };
}

export type RunManager = ReturnType<typeof createRunManager>;

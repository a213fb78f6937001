// The local backend: a run's three processes on this machine, started with readiness probes, watched, stopped, re-attached.
import { COMPONENTS, type Component, type RunProcessesRepo } from "../../../../db/run-processes.ts";
import type { RunRow, RunsRepo } from "../../../../db/runs.ts";
import type { Config } from "../../../config.ts";
import { asRlError, RlError } from "../../../errors.ts";
import type { Logger } from "../../../log.ts";
import { readTailLines } from "../../../metrics/log-tail.ts";
import { readTrainerProgress } from "../../../metrics/trainer-progress.ts";
import { checkSpawnPlan } from "../../check-spawn-plan.ts";
import { commandHelpFor, type ComponentPlanner } from "../../component-plan.ts";
import { crashPoint, type CrashPoint } from "../../lifecycle/crash-point.ts";
import { finishStop } from "../../lifecycle/finish-stop.ts";
import { STOP_ORDER, type Transitions } from "../../lifecycle/transitions.ts";
import type { ExitInfo, LocalSupervisor } from "../../local-supervisor.ts";
import { isSameProcess } from "../../../process/process-info.ts";
import { httpAnswers, waitUntil } from "../../wait-until.ts";
import { ensurePortFree } from "./ensure-port-free.ts";

export interface LocalBackendDeps {
  config: Config;
  runs: RunsRepo;
  processes: RunProcessesRepo;
  supervisor: LocalSupervisor;
  transitions: Transitions;
  plan: ComponentPlanner;
  addresses: { apiUrl: string; apiPort: number; trainerUrl: string; trainerPort: number };
  logPath: (runId: string, component: Component) => string;
  /** Do the process actions the run is owed (the lifecycle's executor). */
  carryOut: (runId: string) => Promise<void>;
  /** A run ended: start what is queued. */
  onEnded: () => void;
  log: Logger;
  now: () => number;
  /** How long an environment must stay alive to count as ready when it shows no traffic yet. */
  envSettleMs: number;
}

const LOG_TAIL_LINES = 15;
const PORT_NAMES: Partial<Record<Component, string>> = { api: "trajectory API", trainer: "trainer" };

export function createLocalBackend(deps: LocalBackendDeps) {
  const { config, runs, processes, supervisor, transitions, addresses, log } = deps;
  const launching = new Map<string, { abort: AbortController; done: Promise<void> }>();
  /** Set at shutdown: exits seen afterwards are the next start's to settle (the database is closing). */
  let detached = false;

  async function apiStatus(): Promise<{ current_step: number; queue_size: number } | undefined> {
    try {
      const res = await fetch(`${addresses.apiUrl}/status`, { signal: AbortSignal.timeout(1500) });
      if (!res.ok) return undefined;
      return (await res.json()) as { current_step: number; queue_size: number };
    } catch {
      return undefined;
    }
  }

  /** A probe counts only while our own child is alive: an answer from a stray process on the port is no answer. */
  function readiness(runId: string, component: Component, startedAt: number): () => Promise<boolean> {
    const probe =
      component === "api"
        ? () => httpAnswers(`${addresses.apiUrl}/`)
        : component === "trainer"
          ? () => httpAnswers(`${addresses.trainerUrl}/health`)
          : async () => {
              // The environment is ready once it sends data, or has stayed alive through a short settle period.
              const s = await apiStatus();
              if (s && (s.queue_size > 0 || s.current_step > 0)) return true;
              return deps.now() - startedAt >= deps.envSettleMs;
            };
    return async () => supervisor.isAlive(runId, component) && (await probe()) && supervisor.isAlive(runId, component);
  }

  function describeExit(component: Component, info: ExitInfo): string {
    if (info.spawnError) return `${component} could not start: ${info.spawnError}`;
    if (info.signal) return `${component} was killed by ${info.signal}`;
    if (info.exitCode === undefined)
      return `${component} exited (exit code unknown: it was started by an earlier bot process)`;
    return `${component} exited with code ${info.exitCode}`;
  }

  async function fail(
    runId: string,
    component: Component | undefined,
    message: string,
    info?: ExitInfo,
  ): Promise<void> {
    const logTail = component ? await readTailLines(deps.logPath(runId, component), LOG_TAIL_LINES) : undefined;
    const run = transitions.move(
      runId,
      ["starting", "running"],
      { status: "failed", error: message, failedComponent: component, endedAt: deps.now() },
      {
        notice: { kind: "failed", component, exitCode: info?.exitCode, signal: info?.signal, logTail, message },
        owe: STOP_ORDER,
      },
    );
    if (!run) return;
    log.warn("run failed", { runId, component, message });
    await deps.carryOut(runId);
    deps.onEnded();
  }

  async function complete(runId: string, note = ""): Promise<void> {
    const progress = await readTrainerProgress(deps.logPath(runId, "trainer"));
    const weights = progress.finalWeights ? ` Final weights: ${progress.finalWeights}` : "";
    const message = `Training complete after ${progress.step ?? "?"} steps; reward mean ${progress.rewardMean ?? "?"}.${weights}${note}`;
    const run = transitions.move(
      runId,
      ["running"],
      { status: "completed", endedAt: deps.now() },
      {
        notice: { kind: "completed", message, reward: { final: progress.rewardMean, history: progress.rewardHistory } },
        owe: STOP_ORDER,
      },
    );
    if (!run) return;
    await deps.carryOut(runId);
    deps.onEnded();
  }

  async function onExit(runId: string, component: Component, info: ExitInfo): Promise<void> {
    const run = runs.get(runId);
    if (!run) return;
    if (run.status === "starting") {
      launching.get(runId)?.abort.abort(
        new RlError("PROCESS_FAILED", `${describeExit(component, info)} while the run was starting.`, {
          details: { component, exitCode: info.exitCode },
        }),
      );
      return;
    }
    if (run.status !== "running") return;
    const clean = info.exitCode === 0 || (info.exitCode === undefined && !info.signal && !info.spawnError);
    if (component === "env" && clean) {
      log.info("environment finished; waiting for the trainer", { runId });
      return;
    }
    if (component === "trainer" && clean) {
      const progress = await readTrainerProgress(deps.logPath(runId, "trainer"));
      if (progress.stepErrors.length > 0)
        return fail(
          runId,
          "trainer",
          `The trainer reported a step error and stopped: ${progress.stepErrors.at(-1)}`,
          info,
        );
      if (info.exitCode === 0 || progress.completed) return complete(runId);
    }
    return fail(runId, component, `${describeExit(component, info)}.`, info);
  }

  function watch(runId: string, component: Component): void {
    supervisor
      .exited(runId, component)
      .then((info) => (detached ? undefined : onExit(runId, component, info)))
      .catch((err: unknown) => log.error("exit watcher failed", { runId, component, err }));
  }

  async function launch(run: RunRow, progress?: (text: string) => Promise<void>): Promise<RunRow> {
    const abort = new AbortController();
    let settle!: () => void;
    launching.set(run.id, { abort, done: new Promise<void>((r) => (settle = r)) });
    let component: Component = "api";
    try {
      for (component of COMPONENTS) {
        const port =
          component === "api" ? addresses.apiPort : component === "trainer" ? addresses.trainerPort : undefined;
        if (port !== undefined) await ensurePortFree(port, PORT_NAMES[component]!);
        const plan = await deps.plan(run, component);
        abort.signal.throwIfAborted();
        checkSpawnPlan(plan, commandHelpFor(config, component));
        const startedAt = deps.now();
        supervisor.spawn(run.id, plan);
        crashPoint(`spawned:${component}` as CrashPoint);
        watch(run.id, component);
        await waitUntil(readiness(run.id, component, startedAt), {
          what: `The ${component}`,
          timeoutMs: config.readyTimeoutMs,
          signal: abort.signal,
        });
        processes.markReady(run.id, component);
        await progress?.(`${component} is ready`).catch(() => undefined);
      }
      transitions.move(
        run.id,
        ["starting"],
        { status: "running", startedAt: deps.now() },
        { notice: { kind: "started", message: `Run ${run.id} of ${run.environment} is running.` } },
      );
    } catch (thrown) {
      const err = asRlError(thrown);
      const failedComponent = (err.details.component as Component | undefined) ?? component;
      await fail(run.id, failedComponent, err.message);
    } finally {
      launching.delete(run.id);
      settle();
    }
    return runs.get(run.id)!;
  }

  /** Stop one component, whether this process started it or an earlier one did; a reused pid is never signalled. */
  async function stopComponent(runId: string, component: Component): Promise<void> {
    if (supervisor.pid(runId, component) === undefined) {
      const row = processes.list(runId).find((p) => p.component === component);
      if (!row || row.state === "exited") return;
      if (!isSameProcess(row.pid, row.startTime)) {
        processes.markExited(runId, component, undefined, undefined, deps.now());
        return;
      }
      supervisor.attach(row);
    }
    await supervisor.stopComponent(runId, component);
  }

  /** A live run no process watches (the bot restarted): re-attach, or settle it from what is left. */
  async function recover(run: RunRow): Promise<void> {
    if (supervisor.isTracked(run.id) || launching.has(run.id)) return;
    const alive = processes.list(run.id).filter((p) => p.state !== "exited" && isSameProcess(p.pid, p.startTime));
    const isUp = (c: Component) => alive.some((p) => p.component === c);
    if (run.status === "stopping") {
      finishStop(transitions.move, run, deps.now(), STOP_ORDER);
      await deps.carryOut(run.id);
      return;
    }
    if (run.status === "starting") {
      const message =
        "The bot restarted while this run was starting; its processes were stopped. Start it again with /rl start.";
      transitions.move(
        run.id,
        ["starting"],
        { status: "lost", error: message, endedAt: deps.now() },
        { notice: { kind: "lost", message }, owe: STOP_ORDER },
      );
      await deps.carryOut(run.id);
      deps.onEnded();
      return;
    }
    // Running. The environment exits 0 when its steps are done while the trainer finishes its last step: that is no loss.
    if (isUp("trainer") && isUp("api")) {
      for (const p of alive) {
        supervisor.attach(p);
        watch(run.id, p.component);
      }
      log.info("re-attached to a running run", { runId: run.id, components: alive.map((p) => p.component) });
      return;
    }
    if (isUp("trainer"))
      return fail(
        run.id,
        "api",
        "The trajectory API ended while the bot was not running; the rest of the run was stopped.",
      );
    const progress = await readTrainerProgress(deps.logPath(run.id, "trainer"));
    if (progress.stepErrors.length > 0)
      return fail(run.id, "trainer", `The trainer reported a step error and stopped: ${progress.stepErrors.at(-1)}`);
    if (progress.completed) return complete(run.id, " (It finished while the bot was not running.)");
    const message =
      "The bot lost track of this run: its trainer ended or was replaced while the bot was not running, without finishing.";
    const lost = transitions.move(
      run.id,
      ["running"],
      { status: "lost", error: message, endedAt: deps.now() },
      { notice: { kind: "lost", message }, owe: STOP_ORDER },
    );
    if (lost) {
      await deps.carryOut(run.id);
      deps.onEnded();
    }
  }

  /** Abort a start in progress and wait until it has given up (so nothing is spawned after a stop). */
  async function abortLaunch(runId: string, reason: string): Promise<void> {
    const l = launching.get(runId);
    if (!l) return;
    l.abort.abort(new RlError("PROCESS_FAILED", reason));
    await l.done;
  }

  return {
    owesStops: true,
    launch,
    async stop(run: RunRow): Promise<void> {
      await abortLaunch(run.id, "stopped");
      await deps.carryOut(run.id);
    },
    stopComponent,
    recover,
    apiStatus,
    abortLaunch,
    isLaunching: (runId: string) => launching.has(runId),
    launchingIds: () => [...launching.keys()],
    busyCount: () => launching.size,
    forget: (runId: string) => supervisor.forget(runId),
    detachAll: () => {
      detached = true;
      supervisor.detachAll();
    },
  };
}

export type LocalBackend = ReturnType<typeof createLocalBackend>;

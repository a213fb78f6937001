// Starts, watches and stops a run's processes on this machine: no shell, one process group each, logs to files.
import { closeSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import type { Component, ProcessRow, RunProcessesRepo } from "../../db/run-processes.ts";
import { RlError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { processStartTime } from "../process/process-info.ts";
import { attachProcess } from "./attach-process.ts";
import { stopProcess } from "./stop-process.ts";
import type { ExitInfo, RecordExit, SpawnPlan, SupervisedProcess } from "../process/supervised-process.ts";

export interface LocalSupervisorDeps {
  processes: RunProcessesRepo;
  log: Logger;
  now: () => number;
  stopGraceMs: number;
  /** How often re-attached processes (not our children) are checked. */
  pollMs?: number;
}

export function createLocalSupervisor(deps: LocalSupervisorDeps) {
  const live = new Map<string, Map<Component, SupervisedProcess>>();
  const pollMs = deps.pollMs ?? 500;

  const entry = (runId: string) => {
    let m = live.get(runId);
    if (!m) live.set(runId, (m = new Map()));
    return m;
  };

  const recordExit: RecordExit = (runId, component, info) => {
    try {
      deps.processes.markExited(runId, component, info.exitCode, info.signal, deps.now());
    } catch (err) {
      // A process that outlives the bot's database (it was closed at shutdown) is recorded by the next start.
      deps.log.debug("could not record a process exit", { runId, component, err });
    }
  };

  /** Spawn one component; the returned promise of its exit resolves once it is reaped. */
  function spawn(runId: string, plan: SpawnPlan): SupervisedProcess {
    mkdirSync(path.dirname(plan.logPath), { recursive: true });
    const fd = openSync(plan.logPath, "a");
    // The log file's descriptor goes straight to the child (no pipe through the bot), so the process keeps
    // writing its log when the bot restarts. execa passes any fd through; its types only list 3-9.
    const logFd = fd as 3;
    let sub;
    try {
      sub = execa(plan.command, plan.args, {
        cwd: plan.cwd,
        env: plan.env,
        extendEnv: false,
        detached: true,
        stdin: "ignore",
        stdout: logFd,
        stderr: logFd,
        reject: false,
        cleanup: false,
      });
    } finally {
      closeSync(fd);
    }
    const pid = sub.pid;
    const startTime = pid === undefined ? undefined : processStartTime(pid);
    deps.processes.upsert({
      runId,
      component: plan.component,
      pid,
      startTime,
      logPath: plan.logPath,
      state: "starting",
      startedAt: deps.now(),
    });
    const item: SupervisedProcess = {
      pid,
      startTime,
      done: false,
      exited: sub.then((r) => {
        const info: ExitInfo =
          pid === undefined
            ? { spawnError: r.shortMessage ?? r.message ?? "could not start" }
            : { exitCode: r.exitCode, signal: r.signal ?? undefined };
        item.done = true;
        item.exitInfo = info;
        recordExit(runId, plan.component, info);
        return info;
      }),
      unref: () => sub.unref(),
    };
    entry(runId).set(plan.component, item);
    return item;
  }

  /** Watch a process from an earlier bot by polling pid + start time (it is not our child). */
  function attach(row: ProcessRow): SupervisedProcess {
    const item = attachProcess(row, pollMs, recordExit);
    entry(row.runId).set(row.component, item);
    return item;
  }

  async function stopComponent(runId: string, component: Component): Promise<void> {
    await stopProcess(
      { log: deps.log, stopGraceMs: deps.stopGraceMs, recordExit },
      runId,
      component,
      live.get(runId)?.get(component),
    );
  }

  return {
    spawn,
    attach,
    stopComponent,
    exited(runId: string, component: Component): Promise<ExitInfo> {
      const item = live.get(runId)?.get(component);
      if (!item) throw new RlError("INTERNAL", `no ${component} process is tracked for run ${runId}`);
      return item.exited;
    },
    /** This process watches the run (spawned or attached it). */
    isTracked(runId: string): boolean {
      return live.has(runId);
    },
    /** It was our child and exited with code 0. */
    exitedCleanly(runId: string, component: Component): boolean {
      return live.get(runId)?.get(component)?.exitInfo?.exitCode === 0;
    },
    isAlive(runId: string, component: Component): boolean {
      const item = live.get(runId)?.get(component);
      return !!item && !item.done;
    },
    pid(runId: string, component: Component): number | undefined {
      return live.get(runId)?.get(component)?.pid;
    },
    forget(runId: string): void {
      for (const item of live.get(runId)?.values() ?? []) item.stopWatching?.();
      live.delete(runId);
    },
    /** Bot shutdown: leave running processes alone (they are re-attached on the next start), stop watching. */
    detachAll(): void {
      for (const m of live.values()) {
        for (const item of m.values()) {
          item.stopWatching?.();
          item.unref?.();
        }
      }
    },
  };
}

export type LocalSupervisor = ReturnType<typeof createLocalSupervisor>;

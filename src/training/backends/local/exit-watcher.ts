// Death is an event: each component's exit is awaited and judged (a clean environment waits for the trainer, the trainer's log decides).
import type { Component } from "../../../../db/run-processes.ts";
import type { RunsRepo } from "../../../../db/runs.ts";
import { RlError } from "../../../errors.ts";
import type { Logger } from "../../../log.ts";
import { readTrainerProgress } from "../../../metrics/trainer-progress.ts";
import type { LocalSupervisor } from "../../local-supervisor.ts";
import type { ExitInfo } from "../../supervised-process.ts";
import type { Launches } from "./launches.ts";
import type { LocalOutcomes } from "./local-outcomes.ts";

export interface ExitWatcherDeps {
  runs: RunsRepo;
  supervisor: LocalSupervisor;
  /** Starts in progress: an exit while starting aborts the start instead. */
  launching: Launches;
  logPath: (runId: string, component: Component) => string;
  outcomes: LocalOutcomes;
  log: Logger;
}

function describeExit(component: Component, info: ExitInfo): string {
  if (info.spawnError) return `${component} could not start: ${info.spawnError}`;
  if (info.signal) return `${component} was killed by ${info.signal}`;
  if (info.exitCode === undefined)
    return `${component} exited (exit code unknown: it was started by an earlier bot process)`;
  return `${component} exited with code ${info.exitCode}`;
}

export function createExitWatcher(deps: ExitWatcherDeps) {
  const { runs, supervisor, launching, log } = deps;
  const { fail, complete } = deps.outcomes;
  /** Set at shutdown: exits seen afterwards are the next start's to settle (the database is closing). */
  let detached = false;

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

  return {
    watch(runId: string, component: Component): void {
      supervisor
        .exited(runId, component)
        .then((info) => (detached ? undefined : onExit(runId, component, info)))
        .catch((err: unknown) => log.error("exit watcher failed", { runId, component, err }));
    },
    /** Bot shutdown: stop judging exits. */
    detach(): void {
      detached = true;
    },
  };
}

export type ExitWatcher = ReturnType<typeof createExitWatcher>;

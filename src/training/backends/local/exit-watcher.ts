// Death is an event: each process's exit is awaited and judged by its stack (one that may finish first waits for the rest, the main one's progress decides).
import type { Component } from "../../../../db/run-processes.ts";
import type { RunsRepo } from "../../../../db/runs.ts";
import { RlError } from "../../../errors.ts";
import type { Logger } from "../../../log.ts";
import type { StackRegistry } from "../../../stacks/stack-registry.ts";
import { componentOf, mainStartsLast } from "../../../stacks/training-stack.ts";
import type { LocalSupervisor } from "../../local-supervisor.ts";
import type { ExitInfo } from "../../../process/supervised-process.ts";
import type { Launches } from "./launches.ts";
import type { LocalOutcomes } from "./local-outcomes.ts";

export interface ExitWatcherDeps {
  runs: RunsRepo;
  supervisor: LocalSupervisor;
  /** Starts in progress: an exit while starting aborts the start instead. */
  launching: Launches;
  stacks: StackRegistry;
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
    const clean = info.exitCode === 0 || (info.exitCode === undefined && !info.signal && !info.spawnError);
    const stack = deps.stacks.of(run);
    if (run.status === "starting") {
      // Done before it was seen working: the start counts it ready (readiness.ts) and the main process decides.
      if (info.exitCode === 0 && componentOf(stack, component).mayFinishFirst) return;
      // A short run's only process done before it was judged ready: the start counts it ready, then its exit is judged.
      const launch = launching.get(runId);
      if (info.exitCode === 0 && launch && mainStartsLast(stack, component)) {
        await launch.done;
        return onExit(runId, component, info);
      }
      launching.get(runId)?.abort.abort(
        new RlError("PROCESS_FAILED", `${describeExit(component, info)} while the run was starting.`, {
          details: { component, exitCode: info.exitCode },
        }),
      );
      return;
    }
    if (run.status !== "running") return;
    if (clean && componentOf(stack, component).mayFinishFirst) {
      log.info(`${componentOf(stack, component).title} finished; waiting for the ${stack.main}`, { runId });
      return;
    }
    if (component === stack.main && clean) {
      const progress = await stack.readProgress(run);
      if (progress.stepErrors.length > 0)
        return fail(
          runId,
          component,
          `The ${component} reported a step error and stopped: ${progress.stepErrors.at(-1)}`,
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

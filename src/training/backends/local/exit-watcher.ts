// Death is an event: each process's exit is awaited and judged by its stack (one that may finish first waits for the rest, the main one's progress decides).
import type { Component } from "../../../../db/run-processes.ts";
import type { RunsRepo } from "../../../../db/runs.ts";
import { RlError } from "../../../errors.ts";
import type { Logger } from "../../../log.ts";
import type { StackRegistry } from "../../../stacks/stack-registry.ts";
import { isWriteRefused } from "../../full-disk.ts";
import { componentOf } from "../../../stacks/training-stack.ts";
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

/** How long an end that could not be written waits before it is tried again: soon at first, then every half minute. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

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
  /**
   * Runs whose end was seen but could not be written (the disk full): the exit is kept here and judged again until
   * the write goes through. Their other processes' exits are the stops that follow and are not judged on their own.
   */
  const held = new Set<string>();
  const retries = new Set<NodeJS.Timeout>();

  async function onExit(runId: string, component: Component, info: ExitInfo): Promise<void> {
    const run = runs.get(runId);
    if (!run) return;
    const clean = info.exitCode === 0 || (info.exitCode === undefined && !info.signal && !info.spawnError);
    const stack = deps.stacks.of(run);
    if (run.status === "starting") {
      // Done before it was seen working: the start counts it ready (readiness.ts) and the main process decides.
      if (info.exitCode === 0 && componentOf(stack, component).mayFinishFirst) return;
      // A short run's main process done before the start finished (the environment still in its settle period): the
      // start counts the rest ready (launch-local.ts), then the exit is judged as a running run's.
      const launch = launching.get(runId);
      if (info.exitCode === 0 && launch && component === stack.main) {
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

  /** Judges an exit; one whose judgement the disk refused is held, the run's other processes stopped, and tried again. */
  async function judge(runId: string, component: Component, info: ExitInfo): Promise<void> {
    if (detached || held.has(runId)) return;
    try {
      await onExit(runId, component, info);
    } catch (err) {
      if (!isWriteRefused(err)) throw err;
      held.add(runId);
      const cause = deps.outcomes.noteCause(runId);
      log.error("a run's end could not be recorded; its other processes are stopped and the record is tried again", {
        runId,
        component,
        cause,
        err,
      });
      // Nothing of the run may keep its ports or its GPU while the record waits: stopping writes nothing that matters.
      await stopOthers(runId, component);
      retry(runId, component, info, RETRY_FIRST_MS);
    }
  }

  async function stopOthers(runId: string, ended: Component): Promise<void> {
    const run = runs.get(runId);
    if (!run) return;
    for (const name of deps.stacks.of(run).stopOrder) {
      if (name === ended) continue;
      await supervisor.stopComponent(runId, name).catch((err: unknown) => log.warn("could not stop", { runId, err }));
    }
  }

  function retry(runId: string, component: Component, info: ExitInfo, waitMs: number): void {
    const timer = setTimeout(() => {
      retries.delete(timer);
      if (detached) return;
      onExit(runId, component, info).then(
        () => {
          held.delete(runId);
          log.info("a run's end was recorded once the disk allowed it", { runId, component });
        },
        (err: unknown) => {
          if (isWriteRefused(err)) return retry(runId, component, info, Math.min(waitMs * 2, RETRY_MAX_MS));
          held.delete(runId);
          log.error("exit watcher failed", { runId, component, err });
        },
      );
    }, waitMs);
    retries.add(timer);
  }

  return {
    watch(runId: string, component: Component): void {
      supervisor
        .exited(runId, component)
        .then((info) => judge(runId, component, info))
        .catch((err: unknown) => log.error("exit watcher failed", { runId, component, err }));
    },
    /** Bot shutdown: stop judging exits (one still held is settled by the next start, from what is left). */
    detach(): void {
      detached = true;
      for (const timer of retries) clearTimeout(timer);
      retries.clear();
    },
  };
}

export type ExitWatcher = ReturnType<typeof createExitWatcher>;

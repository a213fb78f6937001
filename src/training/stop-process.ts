// Stops one tracked process: SIGTERM to its group, SIGKILL after the grace period, never a pid that is no longer ours.
import type { Component } from "../../db/run-processes.ts";
import type { Logger } from "../log.ts";
import { isSameProcess, signalGroup } from "../process/process-info.ts";
import type { RecordExit, SupervisedProcess } from "../process/supervised-process.ts";
import { delay } from "./wait-until.ts";

export interface StopProcessDeps {
  log: Logger;
  stopGraceMs: number;
  recordExit: RecordExit;
}

/** Resolves when the process is gone: our child is reaped, an attached one no longer matches its pid + start time. */
async function gone(item: SupervisedProcess): Promise<void> {
  if (!item.stopWatching) {
    await item.exited;
    return;
  }
  // Polled with referenced timers so a one-shot command waits for the stop to finish.
  while (isSameProcess(item.pid, item.startTime)) await delay(50);
}

export async function stopProcess(
  deps: StopProcessDeps,
  runId: string,
  component: Component,
  item: SupervisedProcess | undefined,
): Promise<void> {
  if (!item || item.done || item.pid === undefined) return;
  // Never signal a pid that is no longer the process we started.
  if (isSameProcess(item.pid, item.startTime)) {
    signalGroup(item.pid, "SIGTERM");
    // The grace timer goes when the process does: left running, it would keep a bot that is shutting down alive.
    const graceOver = new AbortController();
    const graceful = await Promise.race([
      gone(item).then(() => true),
      delay(deps.stopGraceMs, graceOver.signal).then(() => false),
    ]);
    graceOver.abort();
    if (!graceful && isSameProcess(item.pid, item.startTime)) {
      deps.log.warn("component ignored SIGTERM; killing", { runId, component });
      signalGroup(item.pid, "SIGKILL");
    }
    await gone(item);
    // Children of the component share its group: make sure none outlived it.
    signalGroup(item.pid, "SIGKILL");
  }
  if (item.stopWatching) {
    item.stopWatching();
    item.done = true;
    deps.recordExit(runId, component, {});
  }
}

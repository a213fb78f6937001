// A local run's endings: failed or completed, each committed with its notice and the stops it owes, then carried out.
import type { Component } from "../../../../db/run-processes.ts";
import type { RunsRepo } from "../../../../db/runs.ts";
import type { Logger } from "../../../log.ts";
import { readTailLines } from "../../../metrics/log-tail.ts";
import type { StackRegistry } from "../../../stacks/stack-registry.ts";
import { describeFullDisks, type Folder } from "../../full-disk.ts";
import { describeCompletion } from "../../lifecycle/completion-notice.ts";
import type { Transitions } from "../../lifecycle/transitions.ts";
import type { ExitInfo } from "../../../process/supervised-process.ts";

export interface LocalOutcomesDeps {
  transitions: Transitions;
  logPath: (runId: string, component: Component) => string;
  runs: RunsRepo;
  stacks: StackRegistry;
  /** Do the process actions the run is owed (the lifecycle's executor). */
  carryOut: (runId: string) => Promise<void>;
  /** A run ended: start what is queued. */
  onEnded: () => void;
  log: Logger;
  now: () => number;
  /** The folders a run writes to (its logs, the database): a failure names those on a full disk. */
  folders: readonly Folder[];
}

const LOG_TAIL_LINES = 15;

export function createLocalOutcomes(deps: LocalOutcomesDeps) {
  const { transitions, log } = deps;
  /** What was seen when a run's end could not be written (the disk full then, free by the time it is written). */
  const causes = new Map<string, string>();

  async function fail(
    runId: string,
    component: Component | undefined,
    message: string,
    info?: ExitInfo,
    endedAt = deps.now(),
  ): Promise<void> {
    const logTail = component ? await readTailLines(deps.logPath(runId, component), LOG_TAIL_LINES) : undefined;
    const cause = causes.get(runId) ?? describeFullDisks(deps.folders);
    const said = cause ? `${message} ${cause}` : message;
    const run = transitions.move(
      runId,
      ["starting", "running"],
      { status: "failed", error: said, failedComponent: component, endedAt },
      {
        notice: { kind: "failed", component, exitCode: info?.exitCode, signal: info?.signal, logTail, message: said },
        stopAll: true,
      },
    );
    causes.delete(runId);
    if (!run) return;
    // People hear of it from the notice; at warn it would be a third copy on the console's screen.
    log.info("run failed", { runId, component, message: said });
    await deps.carryOut(runId);
    deps.onEnded();
  }

  /** `endedAt`: when the run's own evidence says it ended, for one that ended while no bot watched. */
  async function complete(runId: string, note = "", endedAt = deps.now()): Promise<void> {
    const current = deps.runs.get(runId);
    if (!current) return;
    const { message, reward } = await describeCompletion(deps.stacks.of(current), current, note);
    const run = transitions.move(
      runId,
      ["running"],
      { status: "completed", endedAt },
      {
        notice: { kind: "completed", message, reward },
        stopAll: true,
      },
    );
    if (!run) return;
    await deps.carryOut(runId);
    deps.onEnded();
  }

  /** Remember why a run's end could not be written now, for the notice written once it can be. */
  function noteCause(runId: string): string | undefined {
    const cause = describeFullDisks(deps.folders);
    if (cause && !causes.has(runId)) causes.set(runId, cause);
    return causes.get(runId);
  }

  return { fail, complete, noteCause };
}

export type LocalOutcomes = ReturnType<typeof createLocalOutcomes>;

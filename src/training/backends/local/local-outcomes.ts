// A local run's endings: failed or completed, each committed with its notice and the stops it owes, then carried out.
import type { Component } from "../../../../db/run-processes.ts";
import type { RunsRepo } from "../../../../db/runs.ts";
import type { Logger } from "../../../log.ts";
import { readTailLines } from "../../../metrics/log-tail.ts";
import type { StackRegistry } from "../../../stacks/stack-registry.ts";
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
}

const LOG_TAIL_LINES = 15;

export function createLocalOutcomes(deps: LocalOutcomesDeps) {
  const { transitions, log } = deps;

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
        stopAll: true,
      },
    );
    if (!run) return;
    // People hear of it from the notice; at warn it would be a third copy on the console's screen.
    log.info("run failed", { runId, component, message });
    await deps.carryOut(runId);
    deps.onEnded();
  }

  async function complete(runId: string, note = ""): Promise<void> {
    const current = deps.runs.get(runId);
    if (!current) return;
    const { message, reward } = await describeCompletion(deps.stacks.of(current), current, note);
    const run = transitions.move(
      runId,
      ["running"],
      { status: "completed", endedAt: deps.now() },
      {
        notice: { kind: "completed", message, reward },
        stopAll: true,
      },
    );
    if (!run) return;
    await deps.carryOut(runId);
    deps.onEnded();
  }

  return { fail, complete };
}

export type LocalOutcomes = ReturnType<typeof createLocalOutcomes>;

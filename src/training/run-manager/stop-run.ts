// Stopping one run: a queued one is cancelled; a live one moves to "stopping", its backend ends it, then it is "stopped".
import type { RunRow, RunsRepo } from "../../../db/runs.ts";
import { RlError } from "../../errors.ts";
import type { RunBackend } from "../backends/run-backend.ts";
import type { Transitions } from "../lifecycle/transitions.ts";

export interface RunStopperDeps {
  runs: RunsRepo;
  transitions: Transitions;
  /** Each run's backend, as recorded at its creation. */
  backends: Record<RunRow["backend"], RunBackend>;
  now: () => number;
  /** A run ended: start what is queued. */
  startQueued: () => void;
}

export function createRunStopper(deps: RunStopperDeps) {
  const { runs, transitions } = deps;

  return async function stop(runId: string, by: string): Promise<RunRow> {
    const run = runs.get(runId);
    if (!run) throw new RlError("NOT_FOUND", `No run "${runId}". See /rl runs.`);
    if (run.status === "queued") {
      const cancelled = transitions.move(
        runId,
        ["queued"],
        { status: "stopped", stoppedBy: by, endedAt: deps.now() },
        { notice: { kind: "stopped", message: `Queued run ${runId} was cancelled by ${by}.` } },
      );
      if (cancelled) return cancelled;
    }
    const backend = deps.backends[run.backend];
    const stopping = transitions.move(
      runId,
      ["starting", "running"],
      { status: "stopping", stoppedBy: by },
      backend.owesStops ? { stopAll: true } : {},
    );
    if (!stopping) {
      const now = runs.get(runId)!;
      throw new RlError("CONFLICT", `Run ${runId} is not running (it is ${now.status}).`);
    }
    await backend.stop(stopping);
    transitions.move(
      runId,
      ["stopping"],
      { status: "stopped", endedAt: deps.now() },
      { notice: { kind: "stopped", message: `Run ${runId} was stopped by ${by}.` } },
    );
    deps.startQueued();
    return runs.get(runId)!;
  };
}

export type StopRun = ReturnType<typeof createRunStopper>;

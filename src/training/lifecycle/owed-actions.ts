// Carries out the process actions a run's transition owes, in order, each marked done once it is done.
import type { RunActionsRepo } from "../../../db/run-actions.ts";
import type { Component } from "../../../db/run-processes.ts";
import type { Logger } from "../../log.ts";
import { crashPoint, type CrashPoint } from "../../process/crash-point.ts";

export interface OwedActionsDeps {
  actions: RunActionsRepo;
  /** Stop one component of a run, whether this process started it or an earlier one did (pid + start time). */
  stopComponent: (runId: string, component: Component) => Promise<void>;
  /** Everything owed for the run is done: let go of it. */
  onSettled: (runId: string) => void;
  log: Logger;
  now: () => number;
}

export function createOwedActions(deps: OwedActionsDeps) {
  const inFlight = new Map<string, Promise<void>>();

  async function work(runId: string): Promise<void> {
    for (const action of deps.actions.pending(runId)) {
      await deps.stopComponent(runId, action.component);
      deps.actions.markDone(action.id, deps.now());
      crashPoint(`stopped:${action.component}` as CrashPoint);
    }
    deps.onSettled(runId);
  }

  /** Do what the run is owed; concurrent calls for one run share one pass. */
  function carryOut(runId: string): Promise<void> {
    let pass = inFlight.get(runId);
    if (!pass) {
      pass = work(runId).finally(() => inFlight.delete(runId));
      inFlight.set(runId, pass);
    }
    return pass;
  }

  return {
    carryOut,
    /** At start: finish what an earlier process left owed (it may have died between two stops). */
    async carryOutAll(): Promise<void> {
      const runIds = [...new Set(deps.actions.pending().map((a) => a.runId))];
      for (const runId of runIds)
        await carryOut(runId).catch((err: unknown) => deps.log.error("owed process actions failed", { runId, err }));
    },
    busy: () => inFlight.size,
    /** Resolves when no pass is in flight (shutdown waits for stops under way before the database closes). */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight.values()]);
    },
  };
}

export type OwedActions = ReturnType<typeof createOwedActions>;

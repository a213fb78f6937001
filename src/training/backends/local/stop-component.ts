// Stops one component of a run, whether this process started it or an earlier one did; a reused pid is never signalled.
import type { Component, RunProcessesRepo } from "../../../../db/run-processes.ts";
import { isSameProcess } from "../../../process/process-info.ts";
import type { LocalSupervisor } from "../../local-supervisor.ts";

export interface ComponentStopperDeps {
  processes: RunProcessesRepo;
  supervisor: LocalSupervisor;
  now: () => number;
}

export function createComponentStopper(deps: ComponentStopperDeps) {
  const { processes, supervisor } = deps;
  return async function stopComponent(runId: string, component: Component): Promise<void> {
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
  };
}

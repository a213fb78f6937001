// Ends a bench's bot services: its runs stopped through the run manager, whatever that left killed by pid, then closed.
import type { Services } from "../src/services.ts";
import { processStartTime } from "../src/process/process-info.ts";
import { killPid } from "./cleanup.ts";

export async function stopRunsAndClose(services: Services): Promise<void> {
  for (const run of services.runs.listByStatus(["queued", "starting", "running"]))
    await services.manager.stop(run.id, "bench").catch(() => undefined);
  // Whatever the manager did not stop (it should have) is killed by pid, ours only.
  const left = services.db.prepare("SELECT pid FROM run_processes WHERE state != 'exited'").all() as Array<{
    pid: number | null;
  }>;
  await services.close();
  for (const { pid } of left) killPid(pid ?? undefined);
}

/** Of `pids`, those still alive, killed; how many there were. Alive: the kernel still has it and it is not a zombie. */
export function killLeftOver(pids: ReadonlyArray<number | undefined>): number {
  const alive = pids.filter((pid) => pid !== undefined && processStartTime(pid) !== undefined);
  for (const pid of alive) killPid(pid);
  return alive.length;
}

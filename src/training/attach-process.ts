// Watches a process an earlier bot started by polling pid + start time: it is not our child, so its exit is not reported.
import type { ProcessRow } from "../../db/run-processes.ts";
import { isSameProcess } from "../process/process-info.ts";
import type { ExitInfo, RecordExit, SupervisedProcess } from "../process/supervised-process.ts";

export function attachProcess(row: ProcessRow, pollMs: number, recordExit: RecordExit): SupervisedProcess {
  let stop = () => {};
  const item: SupervisedProcess = {
    pid: row.pid,
    startTime: row.startTime,
    done: false,
    exited: new Promise<ExitInfo>((resolve) => {
      const timer = setInterval(() => {
        if (isSameProcess(row.pid, row.startTime)) return;
        clearInterval(timer);
        item.done = true;
        recordExit(row.runId, row.component, {});
        resolve({});
      }, pollMs);
      // Watching must not keep a one-shot command (rl-chatops exec) alive.
      timer.unref();
      stop = () => clearInterval(timer);
    }),
  };
  item.stopWatching = () => stop();
  return item;
}

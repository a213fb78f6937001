// Where a run's process writes its output: one file per run and component in the data folder's logs.
import path from "node:path";

export function logPathOf(logsDir: string, runId: string, component: string): string {
  return path.join(logsDir, `${component}_${runId}.log`);
}

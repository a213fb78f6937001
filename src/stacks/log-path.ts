// Where a run's processes write: one log per run and component in the data folder's logs, the rest in its own folder.
import path from "node:path";

export function logPathOf(logsDir: string, runId: string, component: string): string {
  return path.join(logsDir, `${component}_${runId}.log`);
}

/** A run's own folder in the data folder: what its processes write besides their logs (samples, a recipe's files). */
export function runFolderOf(dataDir: string, runId: string): string {
  return path.join(dataDir, "runs", runId);
}

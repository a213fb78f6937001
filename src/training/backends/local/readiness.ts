// Whether a just-spawned process is ready, by its stack's check: it answers over HTTP, shows traffic, wrote its file,
// or stays alive through its start-up.
import path from "node:path";
import { readApiStatus } from "../../../stacks/api-status.ts";
import { runFolderOf } from "../../../stacks/log-path.ts";
import type { ReadyCheck } from "../../../stacks/training-stack.ts";
import type { LocalSupervisor } from "../../local-supervisor.ts";
import { httpAnswers } from "../../wait-until.ts";
import { fileState } from "./file-state.ts";

export interface ReadinessDeps {
  supervisor: LocalSupervisor;
  dataDir: string;
  now: () => number;
}

/** A trajectory API's /status shows a group queued or a step taken. */
async function showsTraffic(statusUrl: string): Promise<boolean> {
  const status = await readApiStatus(statusUrl);
  return (status?.queue_size ?? 0) > 0 || (status?.current_step ?? 0) > 0;
}

export function createReadiness(deps: ReadinessDeps) {
  const { supervisor } = deps;

  /**
   * Called just before the component is spawned (the settle period and a written file count from then). A probe counts
   * only while our own child is alive: an answer from a stray process on the port is no answer. Evidence of work (data
   * at the API, the recipe's file) ends the start-up at once; a process that dies after it fails the run with a notice,
   * and one whose exit is seen before the answer aborts the start (launch-local.ts), so the answer is never "running"
   * for a process already known dead.
   */
  return function readiness(
    runId: string,
    component: string,
    check: ReadyCheck,
    mayFinishFirst = false,
  ): () => Promise<boolean> {
    const startedAt = deps.now();
    const settled = (settleMs: number) => deps.now() - startedAt >= settleMs;
    let probe: () => Promise<boolean>;
    if (check.kind === "http") probe = () => httpAnswers(check.url);
    else if (check.kind === "traffic")
      probe = async () => settled(check.settleMs) || (await showsTraffic(check.statusUrl));
    else if (check.kind === "written") {
      const file = path.join(runFolderOf(deps.dataDir, runId), check.runFile);
      const before = fileState(file);
      probe = async () => {
        const now = fileState(file);
        return settled(check.settleMs) || (now !== undefined && now !== before);
      };
    } else probe = async () => settled(check.settleMs);
    // A process that may finish first (an environment with few steps) can be done before a probe sees it working.
    return async () =>
      (mayFinishFirst && supervisor.exitedCleanly(runId, component)) ||
      (supervisor.isAlive(runId, component) && (await probe()) && supervisor.isAlive(runId, component));
  };
}

export type Readiness = ReturnType<typeof createReadiness>;

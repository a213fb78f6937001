// Whether a just-spawned process is ready, by its stack's check: it answers over HTTP, or stays alive through its start-up.
import type { ReadyCheck } from "../../../stacks/training-stack.ts";
import type { LocalSupervisor } from "../../local-supervisor.ts";
import { httpAnswers } from "../../wait-until.ts";

export interface ReadinessDeps {
  supervisor: LocalSupervisor;
  now: () => number;
}

export function createReadiness(deps: ReadinessDeps) {
  const { supervisor } = deps;

  /** A probe counts only while our own child is alive: an answer from a stray process on the port is no answer. */
  return function readiness(
    runId: string,
    component: string,
    check: ReadyCheck,
    startedAt: number,
    mayFinishFirst = false,
  ): () => Promise<boolean> {
    const settled = (settleMs: number) => deps.now() - startedAt >= settleMs;
    // Traffic does not cut the settle period short: an environment that sends its first group and dies a moment
    // later (a bad setting found at registration, a failing first step) died during its start-up, and the start
    // must answer failed rather than "up" (a notice after the answer would follow a reply that was wrong).
    const probe = check.kind === "http" ? () => httpAnswers(check.url) : async () => settled(check.settleMs);
    // A process that may finish first (an environment with few steps) can be done before a probe sees it working.
    return async () =>
      (mayFinishFirst && supervisor.exitedCleanly(runId, component)) ||
      (supervisor.isAlive(runId, component) && (await probe()) && supervisor.isAlive(runId, component));
  };
}

export type Readiness = ReturnType<typeof createReadiness>;

// Whether a just-spawned process is ready, by its stack's check: it answers over HTTP, shows traffic, or stays alive.
import type { ReadyCheck } from "../../../stacks/training-stack.ts";
import type { LocalSupervisor } from "../../local-supervisor.ts";
import { httpAnswers } from "../../wait-until.ts";

export interface ReadinessDeps {
  supervisor: LocalSupervisor;
  now: () => number;
}

async function showsTraffic(statusUrl: string): Promise<boolean> {
  try {
    const res = await fetch(statusUrl, { signal: AbortSignal.timeout(1500) });
    if (!res.ok) return false;
    const status = (await res.json()) as { current_step?: number; queue_size?: number };
    return (status.queue_size ?? 0) > 0 || (status.current_step ?? 0) > 0;
  } catch {
    return false;
  }
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
    const probe =
      check.kind === "http"
        ? () => httpAnswers(check.url)
        : check.kind === "traffic"
          ? async () => (await showsTraffic(check.statusUrl)) || settled(check.settleMs)
          : async () => settled(check.settleMs);
    // A process that may finish first (an environment with few steps) can be done before a probe sees it working.
    return async () =>
      (mayFinishFirst && supervisor.exitedCleanly(runId, component)) ||
      (supervisor.isAlive(runId, component) && (await probe()) && supervisor.isAlive(runId, component));
  };
}

export type Readiness = ReturnType<typeof createReadiness>;

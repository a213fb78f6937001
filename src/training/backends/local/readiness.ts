// Whether a just-spawned component is ready: the API and trainer answer over HTTP, the environment sends data or settles.
import type { Component } from "../../../../db/run-processes.ts";
import type { LocalSupervisor } from "../../local-supervisor.ts";
import { httpAnswers } from "../../wait-until.ts";

export interface ReadinessDeps {
  supervisor: LocalSupervisor;
  addresses: { apiUrl: string; trainerUrl: string };
  now: () => number;
  /** How long an environment must stay alive to count as ready when it shows no traffic yet. */
  envSettleMs: number;
}

export function createReadiness(deps: ReadinessDeps) {
  const { supervisor, addresses } = deps;

  async function apiStatus(): Promise<{ current_step: number; queue_size: number } | undefined> {
    try {
      const res = await fetch(`${addresses.apiUrl}/status`, { signal: AbortSignal.timeout(1500) });
      if (!res.ok) return undefined;
      return (await res.json()) as { current_step: number; queue_size: number };
    } catch {
      return undefined;
    }
  }

  /** A probe counts only while our own child is alive: an answer from a stray process on the port is no answer. */
  function readiness(runId: string, component: Component, startedAt: number): () => Promise<boolean> {
    const probe =
      component === "api"
        ? () => httpAnswers(`${addresses.apiUrl}/`)
        : component === "trainer"
          ? () => httpAnswers(`${addresses.trainerUrl}/health`)
          : async () => {
              // The environment is ready once it sends data, or has stayed alive through a short settle period.
              const s = await apiStatus();
              if (s && (s.queue_size > 0 || s.current_step > 0)) return true;
              return deps.now() - startedAt >= deps.envSettleMs;
            };
    return async () => supervisor.isAlive(runId, component) && (await probe()) && supervisor.isAlive(runId, component);
  }

  return { apiStatus, readiness };
}

export type Readiness = ReturnType<typeof createReadiness>;

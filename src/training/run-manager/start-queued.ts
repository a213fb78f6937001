// Starts queued runs, oldest first, while fewer than RL_MAX_CONCURRENT_RUNS are live.
import type { RunRow, RunsRepo } from "../../../db/runs.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../log.ts";
import { LIVE_STATUSES, type Transitions } from "../lifecycle/transitions.ts";

export interface QueueStarterDeps {
  config: Config;
  runs: RunsRepo;
  transitions: Transitions;
  /** Hand a "starting" run to its backend. */
  launch: (run: RunRow) => Promise<RunRow>;
  log: Logger;
}

export function createQueueStarter(deps: QueueStarterDeps): () => void {
  const { config, runs, transitions, log } = deps;
  return function startQueued(): void {
    for (;;) {
      if (runs.countByStatus(LIVE_STATUSES) >= config.maxConcurrentRuns) return;
      const next = runs.listByStatus(["queued"])[0];
      if (!next) return;
      const run = transitions.move(next.id, ["queued"], { status: "starting" });
      if (!run) continue;
      log.info("starting a queued run", { runId: run.id });
      void deps.launch(run).catch((err: unknown) => log.error("queued launch failed", { runId: run.id, err }));
    }
  };
}

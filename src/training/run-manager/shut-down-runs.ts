// Bot shutdown: runs being started cannot finish without the bot and are stopped; running ones carry on.
import type { RunRow } from "../../../db/runs.ts";
import type { LocalBackend } from "../backends/local/local-backend.ts";
import type { RunBackend } from "../backends/run-backend.ts";
import type { OwedActions } from "../lifecycle/owed-actions.ts";
import type { Transitions } from "../lifecycle/transitions.ts";

export interface ShutdownDeps {
  local: LocalBackend;
  transitions: Transitions;
  owed: OwedActions;
  backends: Record<RunRow["backend"], RunBackend>;
  now: () => number;
}

export function createShutdown(deps: ShutdownDeps) {
  const { local, transitions, owed } = deps;

  return async function shutdown(): Promise<void> {
    for (const runId of local.launchingIds()) {
      const run = transitions.move(
        runId,
        ["starting"],
        { status: "stopping", stoppedBy: "bot shutdown" },
        { stopAll: true },
      );
      if (!run) continue;
      await local.abortLaunch(runId, "the bot is shutting down");
      await owed.carryOut(runId);
      transitions.move(
        runId,
        ["stopping"],
        { status: "stopped", endedAt: deps.now() },
        {
          notice: { kind: "stopped", message: `Run ${runId} was stopped: the bot shut down while it was starting.` },
        },
      );
    }
    await owed.idle();
    for (const backend of Object.values(deps.backends)) backend.detachAll();
  };
}

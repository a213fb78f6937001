// Bot shutdown: runs being started cannot finish without the bot and are stopped at once; running ones carry on.
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
  let closing = false;

  async function stopStart(runId: string): Promise<void> {
    const run = transitions.move(
      runId,
      ["starting"],
      { status: "stopping", stoppedBy: "bot shutdown" },
      { stopAll: true },
    );
    if (!run) return;
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

  /**
   * From now on no run starts (a start asked for is refused, queued runs wait for the next bot), and every start in
   * progress is stopped: each moves to "stopping" and its wait is aborted before this yields, so a command in flight
   * that is starting a run ends within the stop grace period instead of waiting out a stuck component.
   */
  async function stopStarts(): Promise<void> {
    closing = true;
    await Promise.all(local.launchingIds().map(stopStart));
  }

  return {
    stopStarts,
    /** True once the bot has begun shutting down. */
    isClosing: () => closing,
    /** The last step of the core's shutdown: stop what is starting, finish owed stops, stop watching running runs. */
    async shutdown(): Promise<void> {
      await stopStarts();
      await owed.idle();
      for (const backend of Object.values(deps.backends)) backend.detachAll();
    },
  };
}

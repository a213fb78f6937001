// Ends a stop left half-done by an earlier bot: the "stopping" run becomes "stopped", naming who stopped it.
import type { RunRow } from "../../../db/runs.ts";
import type { Transitions } from "./transitions.ts";

export function finishStop(
  move: Transitions["move"],
  run: RunRow,
  endedAt: number,
  stopAll = false,
): RunRow | undefined {
  return move(
    run.id,
    ["stopping"],
    { status: "stopped", endedAt },
    {
      notice: {
        kind: "stopped",
        message: `Run ${run.id} was stopped${run.stoppedBy ? ` by ${run.stoppedBy}` : ""}.`,
      },
      stopAll,
    },
  );
}

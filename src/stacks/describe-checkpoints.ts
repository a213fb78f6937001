// How people are told about a run's checkpoints: one checkpoint in a line, and the count with the latest.
import type { Checkpoint } from "./training-stack.ts";

type Shown = Pick<Checkpoint, "name" | "step" | "time" | "path" | "final">;

/** "000020 · step 20 · 2026-12-01 10:20 UTC · tinker://…/weights/000020" */
export function checkpointLine(c: Shown): string {
  const time = c.time ? `${c.time.slice(0, 16).replace("T", " ")} UTC` : "time not recorded";
  return [`${c.final ? "🏁 " : ""}${c.name}`, `step ${c.step}`, time, c.path].join(" · ");
}

/** "3, latest final at step 12: tinker://…" (results); "none yet" when the run saved none. */
export function checkpointsSummary(count: number, latest: Shown | undefined): string {
  return latest ? `${count}, latest ${latest.name} at step ${latest.step}: ${latest.path}` : "none yet";
}

/** The run's final checkpoint, when it saved one at its end. */
export const finalCheckpoint = (checkpoints: readonly Checkpoint[]) => checkpoints.findLast((c) => c.final);

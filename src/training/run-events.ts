// What happens to a run that people should hear about at once: the notices' source.
import type { RunRow } from "../../db/runs.ts";

export type RunEventKind = "queued" | "started" | "resumed" | "failed" | "completed" | "stopped" | "lost";

export interface RunEvent {
  kind: RunEventKind;
  run: RunRow;
  component?: string;
  exitCode?: number;
  signal?: string;
  logTail?: string[];
  /** A completed run's reward mean: the last the trainer printed, and its history by step (the notice's chart). */
  reward?: { final?: number; history: Array<{ step: number; value: number }> };
  message: string;
}

export type RunEventListener = (event: RunEvent) => void;

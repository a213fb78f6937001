// What happens to a run that people should hear about at once: the notices' source.
import type { RunRow } from "../../db/runs.ts";

export type RunEventKind = "queued" | "started" | "failed" | "completed" | "stopped" | "lost";

export interface RunEvent {
  kind: RunEventKind;
  run: RunRow;
  component?: string;
  exitCode?: number;
  signal?: string;
  logTail?: string[];
  message: string;
}

export type RunEventListener = (event: RunEvent) => void;

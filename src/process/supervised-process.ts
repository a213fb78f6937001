// What the local supervisor starts and tracks: a component's spawn plan, its live process, and how it exited.
import type { Component } from "../../db/run-processes.ts";

export interface ExitInfo {
  /** undefined when the process was not our child (re-attached after a restart) so its code is unknown. */
  exitCode?: number;
  signal?: string;
  /** The process never started (command not found, ...). */
  spawnError?: string;
}

export interface SpawnPlan {
  component: Component;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  logPath: string;
}

/** One component's process as this bot tracks it: spawned as our child, or attached to from an earlier bot. */
export interface SupervisedProcess {
  pid?: number;
  startTime?: string;
  exited: Promise<ExitInfo>;
  done: boolean;
  /** How it ended, once it has (our children only). */
  exitInfo?: ExitInfo;
  /** Lets a re-attached watcher stop polling. */
  stopWatching?: () => void;
  unref?: () => void;
}

/** Record a component's exit in the database. */
export type RecordExit = (runId: string, component: Component, info: ExitInfo) => void;

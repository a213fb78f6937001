// Runs one process-mode child: no shell, its own process group, output to log files, killed as a group at its time limit.
import { closeSync, openSync } from "node:fs";
import { execa } from "execa";
import { signalGroup } from "../process/process-info.ts";

export interface RunChildOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdoutPath: string;
  stderrPath: string;
  timeoutMs: number;
  /** Between SIGTERM and SIGKILL at the time limit. */
  killGraceMs?: number;
  onSpawn?: (pid: number) => void;
  now?: () => number;
}

export interface ChildExit {
  pid?: number;
  exitCode?: number;
  signal?: string;
  /** We killed it at the time limit. */
  timedOut: boolean;
  /** It never started (python not found, no such folder, ...). */
  spawnError?: string;
  startedAt: number;
  durationMs: number;
}

// Groups still running; killed if the bot exits first, since detached children would otherwise outlive it.
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function trackGroup(pid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const group of liveGroups) signalGroup(group, "SIGKILL");
    });
  }
  liveGroups.add(pid);
}

export async function runChild(o: RunChildOptions): Promise<ChildExit> {
  const now = o.now ?? Date.now;
  const startedAt = now();
  const out = openSync(o.stdoutPath, "w");
  const err = openSync(o.stderrPath, "w");
  let sub;
  try {
    // The log files' descriptors go straight to the child (no pipe through the bot, nothing buffered in memory).
    // execa passes any fd through; its types only list 3-9.
    sub = execa(o.command, o.args, {
      cwd: o.cwd,
      env: o.env,
      extendEnv: false,
      detached: true,
      stdin: "ignore",
      stdout: out as 3,
      stderr: err as 3,
      reject: false,
      cleanup: false,
    });
  } finally {
    closeSync(out);
    closeSync(err);
  }
  const pid = sub.pid;
  let timedOut = false;
  let killTimer: NodeJS.Timeout | undefined;
  const limitTimer =
    pid === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          signalGroup(pid, "SIGTERM");
          killTimer = setTimeout(() => signalGroup(pid, "SIGKILL"), o.killGraceMs ?? 2_000);
        }, o.timeoutMs);
  if (pid !== undefined) {
    trackGroup(pid);
    o.onSpawn?.(pid);
  }
  const result = await sub;
  clearTimeout(limitTimer);
  clearTimeout(killTimer);
  if (pid !== undefined) {
    // Anything the environment started shares its group: none may outlive the test.
    signalGroup(pid, "SIGKILL");
    liveGroups.delete(pid);
  }
  return {
    pid,
    exitCode: result.exitCode,
    signal: result.signal ?? undefined,
    timedOut,
    spawnError: pid === undefined ? (result.shortMessage ?? result.message ?? "could not start") : undefined,
    startedAt,
    durationMs: now() - startedAt,
  };
}

// Everything the bench creates (temp folders, child processes, servers) is registered here and removed at the end.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const steps: Array<() => Promise<void> | void> = [];

/** A fresh folder under the system temp dir, removed by cleanupAll(). */
export function benchTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `rl-bench-${prefix}-`));
  steps.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Run `step` at cleanup (latest first); returns a function that runs it now instead. */
export function onCleanup(step: () => Promise<void> | void): () => Promise<void> {
  let done = false;
  const once = async () => {
    if (done) return;
    done = true;
    await step();
  };
  steps.push(once);
  return once;
}

/** Kill the child (by its own pid) at cleanup if it is still running. */
export function trackChild(child: ChildProcess): void {
  steps.push(() => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });
}

/** Kill a process id we started (a training component) if it is still alive. */
export function killPid(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

export async function cleanupAll(): Promise<void> {
  while (steps.length > 0) {
    const step = steps.pop()!;
    try {
      await step();
    } catch (err) {
      console.error("bench cleanup step failed:", err);
    }
  }
}

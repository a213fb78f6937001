// Every child process a test starts is ended when the test ends, however it ends (passed, failed, timed out): a bot
// left spinning or a port left held would fail the next tests for the wrong reason. A child is spawned as the leader of
// its own process group, and the whole group is killed, so what it started in its group goes with it.
import type { ChildProcess } from "node:child_process";
import { execa, type Options } from "execa";
import { onTestFinished } from "vitest";
import { CHILD_CEILING_MS } from "./ceiling.ts";

interface Tracked {
  pid: number | undefined;
  ended: Promise<unknown>;
  /** The child itself has exited (its pid may be another process's by now; its group, while it has members, not). */
  exited: boolean;
}

/** Children started outside a test (beforeAll, a file's top level): ended when the file's tests are done. */
const fileScoped = new Set<Tracked>();

function killGroup(child: Tracked): void {
  if (child.pid === undefined) return;
  for (const target of child.exited ? [-child.pid] : [-child.pid, child.pid]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // Gone already, or not a group leader.
    }
  }
}

async function end(child: Tracked): Promise<void> {
  killGroup(child);
  await child.ended.catch(() => undefined);
}

/** Ends `child` (its process group) when the current test ends, or when the file's tests end outside a test. */
export function trackChild<T extends { pid?: number | undefined }>(child: T, ended: Promise<unknown>): T {
  const tracked: Tracked = { pid: child.pid, ended, exited: false };
  void ended.finally(() => (tracked.exited = true));
  try {
    onTestFinished(() => end(tracked));
  } catch {
    // Outside a test: the setup file (vitest.config.ts) ends it after the file's tests; the benchmarks, which use these
    // helpers outside vitest, end their children themselves.
    fileScoped.add(tracked);
  }
  return child;
}

/** Ends every child started outside a test; vitest's setup file calls it after each file's tests. */
export async function endFileChildren(): Promise<void> {
  await Promise.all([...fileScoped].map(end));
  fileScoped.clear();
}

/**
 * execa, with the child tracked: its own process group, killed when the test ends, and a timeout of its own shorter
 * than the test's. What the options set beyond that is kept.
 */
export function spawnTracked<O extends Options = object>(file: string, args: readonly string[], options?: O) {
  const child = execa(file, args, { timeout: CHILD_CEILING_MS, detached: true, ...options } as O);
  return trackChild(
    child,
    child.catch(() => undefined),
  );
}

/** A child made with node:child_process, tracked the same way (spawn it with `detached: true` to lead its own group). */
export function trackProcess<T extends ChildProcess>(child: T): T {
  const ended =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once("close", () => resolve()));
  return trackChild(child, ended);
}

// Named places where the crash-point suite kills the bot (RL_CRASH_AT=<point>): read only for that test.
import { closeSync, openSync } from "node:fs";
export const CRASH_POINTS = [
  // The very first database is complete under its temporary name and not yet under its own.
  "database-built",
  "run-created",
  "spawned:api",
  "spawned:trainer",
  "spawned:env",
  "committed:running",
  "committed:stopping",
  "committed:completed",
  "committed:failed",
  "committed:stopped",
  "committed:lost",
  "stopped:env",
  "stopped:trainer",
  "posted",
] as const;

/** Resume's own points, between its decision and the resumed process (the resume crash-point suite's). */
export const RESUME_CRASH_POINTS = [
  // The compare-and-set committed: the attempt, who resumed it and its "resumed" notice, in one transaction.
  "resume:committed",
  // What the backend kept of the last attempt is put aside; nothing is spawned yet.
  "resume:relaunching",
  "resume:spawned:trainer",
  // The "resumed" notice is posted and not yet marked sent.
  "resume:posted",
] as const;
/** A client's request that changes something, between its arrival and its answer (the exactly-once suite's). */
export const REQUEST_CRASH_POINTS = [
  // Its id is recorded as taken; the command has not run.
  "request:taken",
  // Its answer is recorded; the client has not heard it.
  "request:answered",
] as const;
/** A Confirm answered through an agent's client (rl-chatops mcp): the prompt's answer is claimed, nothing run yet. */
export const CONFIRM_CRASH_POINTS = ["confirmation-claimed"] as const;
export type CrashPoint =
  | (typeof CRASH_POINTS)[number]
  | (typeof RESUME_CRASH_POINTS)[number]
  | (typeof REQUEST_CRASH_POINTS)[number]
  | (typeof CONFIRM_CRASH_POINTS)[number];

/**
 * SIGKILL this process here when RL_CRASH_AT names this point: the test of what a restart repairs. With RL_CRASH_ONCE
 * naming a file, only the first process to create that file dies (the owner an exec client starts after the crash
 * inherits the same settings, and must live).
 */
export function crashPoint(point: CrashPoint): void {
  if (process.env.RL_CRASH_AT !== point) return;
  const once = process.env.RL_CRASH_ONCE;
  if (once) {
    try {
      closeSync(openSync(once, "wx"));
    } catch {
      return;
    }
  }
  process.kill(process.pid, "SIGKILL");
}

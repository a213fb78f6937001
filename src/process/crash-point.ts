// Named places where the crash-point suite kills the bot (RL_CRASH_AT=<point>): read only for that test.
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
export type CrashPoint = (typeof CRASH_POINTS)[number];

/** SIGKILL this process here when RL_CRASH_AT names this point: the test of what a restart repairs. */
export function crashPoint(point: CrashPoint): void {
  if (process.env.RL_CRASH_AT === point) process.kill(process.pid, "SIGKILL");
}

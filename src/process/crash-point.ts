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
export type CrashPoint = (typeof CRASH_POINTS)[number] | (typeof RESUME_CRASH_POINTS)[number];

/** SIGKILL this process here when RL_CRASH_AT names this point: the test of what a restart repairs. */
export function crashPoint(point: CrashPoint): void {
  if (process.env.RL_CRASH_AT === point) process.kill(process.pid, "SIGKILL");
}

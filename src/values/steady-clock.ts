// A clock for how long things take: the wall clock as it read when the bot started, advanced by the monotonic clock
// since. A change of the wall clock while the bot runs (a +2 h jump, NTP stepping it) does not move it, so a run's
// times and durations are the time it actually took.
import { performance } from "node:perf_hooks";

export function steadyClock(wall: () => number = Date.now): () => number {
  const wallAt = wall();
  const monoAt = performance.now();
  return () => wallAt + Math.round(performance.now() - monoAt);
}

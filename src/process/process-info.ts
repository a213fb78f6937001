// Facts about a pid from /proc: is it alive, and is it still the process we started (pid + start time)?
import { readFileSync } from "node:fs";

/** Field 22 of /proc/PID/stat: the process start time in clock ticks since boot. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // rest[0] is field 3 (state); field 22 is rest[19].
    return rest[0] === "Z" ? undefined : rest[19];
  } catch {
    return undefined;
  }
}

/** True only when `pid` is alive and started at `startTime` (a reused pid is another process). */
export function isSameProcess(pid: number | undefined, startTime: string | undefined): boolean {
  if (pid === undefined || startTime === undefined) return false;
  return processStartTime(pid) === startTime;
}

/** Signal a whole process group; false when it no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

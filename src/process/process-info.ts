// Facts about a pid from /proc: is it alive, is it still the process we started (pid + start time), is it stopped?
import { readFileSync } from "node:fs";

/** The fields of /proc/PID/stat from field 3 (state) on, or undefined when there is no such process. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: the fields after it start past its last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/PID/stat: the process start time in clock ticks since boot. */
export function processStartTime(pid: number): string | undefined {
  const rest = statFields(pid);
  // rest[0] is field 3 (state); field 22 is rest[19].
  return !rest || rest[0] === "Z" ? undefined : rest[19];
}

/** Stopped by a signal (SIGSTOP, Ctrl-Z: state T) or by a debugger (t): it runs nothing until it is continued. */
export function isStoppedProcess(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state === "T" || state === "t";
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

// Finds the discovery processes a process started (src/environments/discovery-process/), from /proc.
import { readdirSync, readFileSync } from "node:fs";

/** The fields of /proc/<pid>/stat (or a task's) after the command name, which may hold spaces and parentheses. */
function statFields(file: string): string[] | undefined {
  try {
    const text = readFileSync(file, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined; // gone meanwhile
  }
}

/** The live discovery processes whose parent is `parent`. */
export function discoveryProcessesOf(parent: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    // Fields from the state on: state, ppid, ...
    const fields = statFields(`/proc/${name}/stat`);
    if (!fields || fields[0] === "Z" || Number(fields[1]) !== parent) continue;
    if (isDiscovery(Number(name))) found.push(Number(name));
  }
  return found;
}

export function isDiscovery(pid: number): boolean {
  try {
    const fields = statFields(`/proc/${pid}/stat`);
    return fields?.[0] !== "Z" && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("scan-process");
  } catch {
    return false;
  }
}

/** The nice value of each thread of `pid`. */
export function threadNiceValues(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    // nice is field 19 of stat; the fields here start at field 3 (state).
    const fields = statFields(`/proc/${pid}/task/${tid}/stat`);
    return fields ? [Number(fields[19 - 3])] : [];
  });
}

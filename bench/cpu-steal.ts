// The share of the CPUs' time the hypervisor gave to other machines (steal, from /proc/stat) while a measurement ran:
// on a shared virtual machine a busy neighbour slows every figure without showing in the load average.
import { readFileSync } from "node:fs";

/** The machine's CPU time so far, in ticks: all of it, and what was stolen. */
export interface CpuTimes {
  total: number;
  steal: number;
}

/** The first line of /proc/stat (user nice system idle iowait irq softirq steal ...); undefined where there is none. */
export function readCpuTimes(): CpuTimes | undefined {
  let first: string;
  try {
    first = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
  } catch {
    return undefined;
  }
  const ticks = first.trim().split(/\s+/).slice(1).map(Number);
  // guest and guest_nice (after steal) are already counted in user and nice.
  const counted = ticks.slice(0, 8);
  if (first.split(/\s+/)[0] !== "cpu" || counted.length < 8 || counted.some((n) => !Number.isFinite(n)))
    return undefined;
  return { total: counted.reduce((sum, n) => sum + n, 0), steal: counted[7]! };
}

/** The share of the time between `before` and `after` that was stolen (0 to 1), or undefined when it cannot be told. */
export function stolenShare(before: CpuTimes | undefined, after: CpuTimes | undefined): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return (after.steal - before.steal) / (after.total - before.total);
}

// Watches the event loop while something runs: the longest stall, and for the worst gap how long our main thread really ran.
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

export interface LoopReport {
  /** monitorEventLoopDelay's max (1 ms resolution, so it includes up to 1 ms of timer period). */
  maxMs: number;
  p99Ms: number;
  /** The worst gap a 1 ms interval saw, wall clock. */
  worstGapMs: number;
  /** Of that gap, the main thread's time on a CPU, and its time runnable but waiting for one (Linux schedstat; NaN elsewhere). */
  worstGapRunMs: number;
  worstGapWaitMs: number;
  /** The most on-CPU time the main thread spent in any one gap: the stall our own code caused, whatever the OS did. */
  longestRunMs: number;
  /** performance.now() at the tick that saw that stretch end (to tell where in the watched work it was). */
  longestRunSeenAt: number;
}

const SCHEDSTAT = `/proc/${process.pid}/task/${process.pid}/schedstat`;

/** The main thread's [on-CPU ns, waiting-for-CPU ns], or undefined where /proc does not say. */
export function mainThreadTimes(): [number, number] | undefined {
  try {
    const [run, wait] = readFileSync(SCHEDSTAT, "utf8").split(" ").map(Number);
    return run === undefined || wait === undefined ? undefined : [run, wait];
  } catch {
    return undefined;
  }
}

export function startLoopProbe(): () => LoopReport {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  let last = performance.now();
  let lastTimes = mainThreadTimes();
  const report = {
    worstGapMs: 0,
    worstGapRunMs: Number.NaN,
    worstGapWaitMs: Number.NaN,
    longestRunMs: lastTimes ? 0 : Number.NaN,
    longestRunSeenAt: Number.NaN,
  };
  const timer = setInterval(() => {
    const now = performance.now();
    const times = mainThreadTimes();
    const runMs = times && lastTimes ? (times[0] - lastTimes[0]) / 1e6 : Number.NaN;
    const waitMs = times && lastTimes ? (times[1] - lastTimes[1]) / 1e6 : Number.NaN;
    if (now - last > report.worstGapMs)
      Object.assign(report, { worstGapMs: now - last, worstGapRunMs: runMs, worstGapWaitMs: waitMs });
    if (runMs > report.longestRunMs) Object.assign(report, { longestRunMs: runMs, longestRunSeenAt: now });
    last = now;
    lastTimes = times;
  }, 1);
  return () => {
    histogram.disable();
    clearInterval(timer);
    return { maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, ...report };
  };
}

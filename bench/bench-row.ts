// One line of the results table: what was measured, on what sizes, our figure, the baseline's, and the goal.

export interface BenchRow {
  /** Stable id, e.g. "discovery-cold". */
  id: string;
  measurement: string;
  sizes: string;
  /** Our figure as shown (median of the repetitions). */
  ours: string;
  /** The comparison figure as shown, or "-" when there is none. */
  baseline: string;
  ratio: string;
  goal: string;
  /** Whether the goal was met; null when the row only reports. */
  met: boolean | null;
  /** What exactly was compared and how (shown under the table). */
  note: string;
  repetitions: number;
  /** The raw numbers behind the row (milliseconds unless the key says otherwise). */
  data: Record<string, unknown>;
  /**
   * The machine's 1-minute load average when the row's measurement started and ended, and the CPU time stolen from it
   * meanwhile (set by bench/main.ts).
   */
  load?: MeasuredLoad;
}

export interface MeasuredLoad {
  start: number;
  end: number;
  cpus: number;
  /** The share of the CPUs' time stolen by the hypervisor during the measurement (0 to 1), where Linux tells it. */
  steal?: number;
  /**
   * The load was above the number of CPUs at either end, or at least STOLEN_BUSY of the CPUs' time was stolen: the
   * figure is slower than on a quiet machine.
   */
  busy: boolean;
}

/**
 * A measurement during which the hypervisor ran other machines on our CPUs this much of the time was not taken on a
 * quiet machine: vmstat beside `npm run bench` showed 5-14% stolen in a run whose loop stall (24-26 ms) was mostly
 * time the bot's thread spent waiting for a CPU while CPUs were idle (2026-12-03).
 */
export const STOLEN_BUSY = 0.05;

/** The machine's load now against its CPUs; `start` the load when the measurement began, `steal` the stolen share. */
export function measuredLoad(start: number, end: number, cpus: number, steal?: number): MeasuredLoad {
  const round = (n: number) => Math.round(n * 100) / 100;
  const busy = Math.max(start, end) > cpus || (steal ?? 0) >= STOLEN_BUSY;
  return { start: round(start), end: round(end), cpus, ...(steal === undefined ? {} : { steal: round(steal) }), busy };
}

export interface BenchReport {
  date: string;
  mode: "full" | "quick";
  machine: {
    cpus: number;
    node: string;
    /** The Node flags the bench ran with: the bot's (bin/bot-node-flags.mjs). */
    nodeFlags?: string[];
    python: string;
    loadAverageAtStart: number[];
    loadAverageAtEnd: number[];
  };
  totalSeconds: number;
  rows: BenchRow[];
}

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
  /** The machine's 1-minute load average when the row's measurement started and ended (set by bench/main.ts). */
  load?: MeasuredLoad;
}

export interface MeasuredLoad {
  start: number;
  end: number;
  cpus: number;
  /** The load was above the number of CPUs at either end: the figure is slower than on a quiet machine. */
  busy: boolean;
}

/** The machine's load now against its CPUs; `start` the load when the measurement began. */
export function measuredLoad(start: number, end: number, cpus: number): MeasuredLoad {
  const round = (n: number) => Math.round(n * 100) / 100;
  return { start: round(start), end: round(end), cpus, busy: Math.max(start, end) > cpus };
}

export interface BenchReport {
  date: string;
  mode: "full" | "quick";
  machine: {
    cpus: number;
    node: string;
    /** The Node flags the bench ran with: the bot's (bin/bot-node-flags.js). */
    nodeFlags?: string[];
    python: string;
    loadAverageAtStart: number[];
    loadAverageAtEnd: number[];
  };
  totalSeconds: number;
  rows: BenchRow[];
}

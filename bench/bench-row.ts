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
}

export interface BenchReport {
  date: string;
  mode: "full" | "quick";
  machine: { cpus: number; node: string; python: string; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  totalSeconds: number;
  rows: BenchRow[];
}

// Renders the results as a plain-text or Markdown table, with the note on what each figure compares beneath it.
import { STOLEN_BUSY, type BenchRow } from "./bench-row.ts";

const HEADERS = ["Measurement", "Sizes", "Ours", "Baseline", "Ratio", "Goal", "Met", "Load"];

/** A stolen share as a percentage, e.g. "8%". */
export const stolenPercent = (share: number): string => `${Math.round(share * 100)}%`;

/**
 * The load the row was measured under, start -> end, and the CPU time stolen meanwhile; marked when the machine was
 * busy (load above its CPUs, or much of their time stolen).
 */
function loadCell(row: BenchRow): string {
  if (!row.load) return "-";
  const { start, end, steal, busy } = row.load;
  const stolen = steal === undefined ? "" : `, steal ${stolenPercent(steal)}`;
  return `${start.toFixed(1)} -> ${end.toFixed(1)}${stolen}${busy ? " (busy)" : ""}`;
}

function cells(row: BenchRow): string[] {
  return [
    row.measurement,
    row.sizes,
    row.ours,
    row.baseline,
    row.ratio,
    row.goal,
    row.met === null ? "-" : row.met ? "yes" : "NO",
    loadCell(row),
  ];
}

export function textTable(rows: readonly BenchRow[]): string {
  const all = [HEADERS, ...rows.map(cells)];
  const widths = HEADERS.map((_, col) => Math.max(...all.map((r) => r[col]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, col) => c.padEnd(widths[col]!))
      .join("  ")
      .trimEnd();
  return [line(HEADERS), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map((r) => line(cells(r)))].join("\n");
}

export function markdownTable(rows: readonly BenchRow[]): string {
  const line = (r: string[]) => `| ${r.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
  return [line(HEADERS), line(HEADERS.map(() => "---")), ...rows.map((r) => line(cells(r)))].join("\n");
}

export function notes(rows: readonly BenchRow[]): string {
  const busy = rows.find((r) => r.load?.busy)?.load;
  const warning = busy
    ? `\nLoad is the 1-minute load average at the start and end of each measurement, and steal the share of the CPUs' time the hypervisor gave to other machines meanwhile (/proc/stat); "(busy)" marks a figure taken with the load above the ${busy.cpus} CPUs or ${stolenPercent(STOLEN_BUSY)} or more of their time stolen, slower than on a quiet machine: measure again when the machine is quiet before comparing it with a goal.`
    : "";
  return rows.map((r, i) => `${i + 1}. ${r.measurement}: ${r.note}`).join("\n") + warning;
}

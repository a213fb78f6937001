// The reply showing a comparison: a table of the runs, the best one named, and one chart with every reward curve.
import type { SweepRow } from "../../db/sweeps.ts";
import type { Reply } from "../reply.ts";
import { formatDuration, formatValue } from "../values/format-value.ts";
import type { Comparison, ComparedRun } from "./compare-runs.ts";

const reward = (r: ComparedRun): string => (r.reward === null ? "–" : Number(r.reward.toFixed(3)).toString());
const changes = (r: ComparedRun, fields: readonly string[]): string =>
  fields.map((f) => `${f}=${Object.hasOwn(r.config, f) ? formatValue(r.config[f]) : "default"}`).join(" ");

/** Columns padded to their widest cell, so the table reads in a monospaced block on every platform. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** A fork counts its steps from 0 again; drawn from its checkpoint's step, it continues its parent's line. */
const pointsOf = (r: ComparedRun) => r.curve.map((p) => ({ x: p.step + (r.forked_from?.step ?? 0), y: p.value }));

/** Each fork's parent up to the fork step (once for forks of the same parent at the same step), unless the parent is
 * compared too: its whole line is drawn then. */
function parentSeries(runs: readonly ComparedRun[]) {
  const byStart = new Map<string, { from: NonNullable<ComparedRun["forked_from"]>; forks: string[] }>();
  for (const r of runs) {
    const from = r.forked_from;
    if (!from || from.curve.length === 0 || runs.some((o) => o.run_id === from.run_id)) continue;
    const key = `${from.run_id}@${from.step}`;
    const seen = byStart.get(key) ?? byStart.set(key, { from, forks: [] }).get(key)!;
    seen.forks.push(r.run_id);
  }
  return [...byStart.values()].map(({ from, forks }) => ({
    label: `${from.run_id} (parent of ${forks.join(", ")}, to step ${from.step})`,
    points: from.curve.map((p) => ({ x: p.step, y: p.value })),
  }));
}

export function comparisonReply(comparison: Comparison, sweep?: SweepRow, finished = false): Reply {
  const { runs, fields, best } = comparison;
  const forks = runs.some((r) => r.forked_from);
  const header = ["run", ...fields, "reward", "steps", "time", "state", ...(forks ? ["forked from"] : [])];
  const rows = runs.map((r) => [
    `${r.run_id}${r.run_id === best ? " ★" : ""}`,
    ...fields.map((f) => (Object.hasOwn(r.config, f) ? formatValue(r.config[f]) : "default")),
    reward(r),
    `${r.step ?? 0}/${r.total_steps ?? "?"}`,
    r.duration_ms === null ? "–" : formatDuration(r.duration_ms),
    r.status,
    ...(forks ? [r.forked_from ? `${r.forked_from.run_id} at step ${r.forked_from.step}` : "–"] : []),
  ]);
  const winner = runs.find((r) => r.run_id === best);
  const curves = runs.filter((r) => r.curve.length > 0);
  const lead = winner && winner.curve.length > 0 ? winner : curves[0];
  return {
    title: sweep
      ? `📊 Sweep ${sweep.id} (${sweep.environment}): ${finished ? "finished, " : ""}${runs.length} runs compared`
      : `📊 ${runs.length} runs compared`,
    text: winner
      ? `Best: run ${winner.run_id}${fields.length ? ` (${changes(winner, fields)})` : ""}, reward ${reward(winner)}${winner.status === "completed" ? "" : ` so far (${winner.status})`}.`
      : "No run has a reward yet.",
    blocks: [{ kind: "code", title: "Runs", content: table([header, ...rows]) }],
    ...(lead
      ? {
          chart: {
            title: "Reward mean by step",
            points: pointsOf(lead),
            series: [
              ...parentSeries(runs),
              ...curves.map((r) => ({
                label: `${r.run_id}${fields.length ? ` ${changes(r, fields)}` : ""}`,
                points: pointsOf(r),
              })),
            ],
          },
        }
      : {}),
    ...(runs[0] ? { delivery: { runId: runs[0].run_id } } : {}),
    data: { ...(sweep ? { sweep_id: sweep.id } : {}), ...comparison },
  };
}

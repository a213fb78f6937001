// What a sweep's living message says: each run's combination and where it is (queued, step and reward, done, failed).
import type { RunRow } from "../../db/runs.ts";
import type { SweepRow } from "../../db/sweeps.ts";
import type { Reply, ReplyButton } from "../reply.ts";
import { formatValue } from "../values/format-value.ts";

/** What was read of a run that started: its step and reward mean, as /rl status shows them. */
export interface RunProgress {
  step: number | null;
  totalSteps: number | null;
  reward: number | null;
}

const ENDED: ReadonlySet<RunRow["status"]> = new Set(["completed", "failed", "stopped", "lost"]);

const rewardText = (reward: number | null | undefined): string =>
  reward === null || reward === undefined ? "" : `, reward ${Number(reward.toFixed(3)).toString()}`;

/** The run's values of the sweep's fields: "temperature=0.3 seed=1". */
export function describeCombination(sweep: Pick<SweepRow, "grid">, run: Pick<RunRow, "config">): string {
  return sweep.grid.map(({ field }) => `${field}=${formatValue(run.config[field])}`).join(" ");
}

function stateOf(run: RunRow, progress: RunProgress | undefined): string {
  const steps = (p: RunProgress) => `step ${p.step ?? 0}/${p.totalSteps ?? run.totalSteps ?? "?"}`;
  switch (run.status) {
    case "queued":
      return "⏳ queued";
    case "starting":
      return "🚀 starting";
    case "running":
      return progress ? `🏃 running, ${steps(progress)}${rewardText(progress.reward)}` : "🏃 running";
    case "stopping":
      return "⏹ stopping";
    case "completed":
      return `✅ done${rewardText(progress?.reward)}`;
    case "failed":
      return "❌ failed";
    case "stopped":
      return "⏹ stopped";
    case "lost":
      return "❓ lost";
  }
}

/** The completed run with the highest reward mean. */
function bestOf(runs: readonly RunRow[], progress: ReadonlyMap<string, RunProgress>): RunRow | undefined {
  let best: RunRow | undefined;
  for (const run of runs) {
    const reward = progress.get(run.id)?.reward;
    if (run.status !== "completed" || reward === null || reward === undefined) continue;
    const bestReward = best ? progress.get(best.id)?.reward : undefined;
    if (bestReward === null || bestReward === undefined || reward > bestReward) best = run;
  }
  return best;
}

function summary(sweep: SweepRow, runs: readonly RunRow[], progress: ReadonlyMap<string, RunProgress>): string {
  const count = (statuses: readonly RunRow["status"][]) => runs.filter((r) => statuses.includes(r.status)).length;
  if (runs.length > 0 && runs.every((r) => ENDED.has(r.status))) {
    const best = bestOf(runs, progress);
    const others = count(["stopped", "lost"]);
    return [
      `Finished: ${count(["completed"])} completed, ${count(["failed"])} failed${others ? `, ${others} stopped or lost` : ""}.`,
      best
        ? ` Best: run ${best.id} (${describeCombination(sweep, best)})${rewardText(progress.get(best.id)?.reward)}.`
        : "",
      " The comparison is in this thread.",
    ].join("");
  }
  return `${count(["completed", "failed", "stopped", "lost"])} of ${runs.length} ended · ${count(["starting", "running", "stopping"])} running · ${count(["queued"])} queued. This message follows the runs; failures and the comparison post in this thread.`;
}

/** The sweep's message: posted by /rl sweep, then edited as its runs move. */
export function sweepBoardReply(
  sweep: SweepRow,
  runs: readonly RunRow[],
  progress: ReadonlyMap<string, RunProgress> = new Map(),
): Reply {
  const going = runs.some((r) => !ENDED.has(r.status));
  const buttons: ReplyButton[] = [{ kind: "command", label: "Compare", command: `/rl compare ${sweep.id}` }];
  if (going) buttons.push({ kind: "command", label: "Stop sweep", command: `/rl stop ${sweep.id}`, style: "danger" });
  return {
    title: `🧪 Sweep ${sweep.id} (${sweep.environment}): ${runs.length} runs`,
    text: summary(sweep, runs, progress),
    fields: runs.map((run) => ({
      label: `Run ${run.id}`,
      value: `${describeCombination(sweep, run)} · ${stateOf(run, progress.get(run.id))}`,
    })),
    buttons,
  };
}

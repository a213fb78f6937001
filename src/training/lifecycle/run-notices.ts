// What a run's notice says: the reply the lifecycle queues in the outbox with the transition that owes it.
import { describeTrainingTime } from "../../values/training-time.ts";
import { prepareChartPoints } from "../../metrics/render-chart-points.ts";
import { wandbGroupLink, type WandbPages } from "../../metrics/wandb-group-link.ts";
import { personRef, type Reply, type ReplyButton, type ReplyChart } from "../../reply.ts";
import type { RunEvent } from "../run-events.ts";
import { startedBy } from "../started-by.ts";

const TITLES: Record<RunEvent["kind"], string> = {
  queued: "⏳ Run queued",
  started: "🏃 Run started",
  resumed: "🔁 Run resumed",
  failed: "❌ Run failed",
  completed: "✅ Run completed",
  stopped: "⏹ Run stopped",
  lost: "❓ Run lost",
};

/** Where WandB pages live (the links in notices). */
export type NoticeWandb = WandbPages;

/** A notice is stored in the outbox: its chart keeps the shape of the curve in a bounded number of points. */
const NOTICE_CHART_POINTS = 200;

function rewardChart(event: RunEvent): ReplyChart | undefined {
  const history = event.reward?.history ?? [];
  // A sweep has one chart, its comparison's, not one a run.
  if (history.length < 2 || event.run.sweepId) return undefined;
  const points = prepareChartPoints(
    history.map((h) => ({ x: h.step, y: h.value })),
    NOTICE_CHART_POINTS,
  );
  return { title: `Reward mean by step, run ${event.run.id}`, points };
}

export function noticeReply(event: RunEvent, redact: (text: string) => string, wandb?: NoticeWandb): Reply {
  const { run } = event;
  const fields = [
    { label: "Run", value: run.id },
    { label: "Environment", value: run.environment },
  ];
  if (event.kind === "started" || event.kind === "queued" || event.kind === "resumed")
    fields.push({ label: "Steps", value: String(run.totalSteps ?? "?") });
  if (event.kind === "resumed" && run.resumedBy) fields.push({ label: "Resumed by", value: personRef(run.resumedBy) });
  fields.push({ label: "Started by", value: startedBy(run) });
  const ended =
    event.kind === "completed" || event.kind === "failed" || event.kind === "stopped" || event.kind === "lost";
  if (ended && (run.startedAt !== undefined || run.trainedMs > 0))
    fields.push({ label: "Duration", value: describeTrainingTime(run, run.endedAt ?? run.updatedAt) });
  if (event.reward?.final !== undefined)
    fields.push({ label: "Final reward", value: Number(event.reward.final.toFixed(4)).toString() });
  if (ended) fields.push({ label: "Logs", value: `/rl logs ${run.id}` });
  if (event.kind === "started" && run.wandbRunName)
    fields.push({ label: "WandB run", value: `${run.wandbProject}/${run.wandbRunName}` });
  if (event.component) fields.push({ label: "Component", value: event.component });
  if (event.exitCode !== undefined || event.signal)
    fields.push({ label: "Exit", value: event.signal ?? String(event.exitCode) });
  if (event.kind === "stopped" && run.stoppedBy) fields.push({ label: "Stopped by", value: personRef(run.stoppedBy) });
  const buttons: ReplyButton[] = [{ kind: "command", label: "Status", command: `/rl status ${run.id}` }];
  if (event.kind === "started" || event.kind === "queued" || event.kind === "resumed")
    buttons.push({ kind: "command", label: "Stop", command: `/rl stop ${run.id}`, style: "danger" });
  if (event.kind === "completed" || event.kind === "failed")
    buttons.push({ kind: "command", label: "Results", command: `/rl results ${run.id}` });
  const link = wandbGroupLink(run, wandb);
  const chart = rewardChart(event);
  return {
    title: `${TITLES[event.kind]}: ${run.id} (${run.environment})`,
    text: redact(event.message),
    fields,
    blocks: event.logTail?.length
      ? [{ kind: "code", title: `Last lines of the ${event.component} log`, content: redact(event.logTail.join("\n")) }]
      : undefined,
    buttons,
    ...(link ? { links: [link] } : {}),
    // The chart's picture goes where the notice goes: the run's thread.
    ...(chart ? { chart, delivery: { runId: run.id } } : {}),
  };
}

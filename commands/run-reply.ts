// Shared pieces of run replies: the status line, the fields people scan, and the Stop / Status buttons.
import type { RunRow } from "../db/runs.ts";
import { personRef, type ReplyButton, type ReplyField, type ReplyLink } from "../src/reply.ts";
import type { RunStatusView } from "../src/training/run-report.ts";

const ICONS: Record<RunRow["status"], string> = {
  queued: "⏳",
  starting: "🚀",
  running: "🏃",
  stopping: "✋",
  stopped: "⏹",
  completed: "✅",
  failed: "❌",
  lost: "❓",
};

export function statusLine(run: { id: string; status: RunRow["status"]; environment: string }): string {
  return `${ICONS[run.status]} Run ${run.id} (${run.environment}): ${run.status}`;
}

const UNDELIVERED_LABELS = { notice: "Notice", digest: "Digest", alert: "Alert" } as const;

const fmt = (n: number | null, digits = 3) => (n === null ? "–" : Number(n.toFixed(digits)).toString());

/** "4242 PENDING (waiting: Resources)", "4242 RUNNING on vm", "4242 FAILED on vm, exit code 1". */
export function slurmJobText(job: NonNullable<RunStatusView["slurm"]>): string {
  // squeue says "None" for a job with no reason to give.
  const waiting = job.reason && job.reason !== "None" ? ` (waiting: ${job.reason})` : "";
  const node = job.node ? ` on ${job.node}` : "";
  const exit = job.exit_code === undefined ? "" : `, exit code ${job.exit_code}`;
  return `${job.job_id} ${job.state}${node}${waiting}${exit}`;
}

export function statusFields(view: RunStatusView): ReplyField[] {
  const fields: ReplyField[] = [
    { label: "Step", value: `${view.step ?? 0} / ${view.total_steps ?? "?"}` },
    { label: "Reward mean", value: fmt(view.reward_mean) },
    { label: "Loss", value: fmt(view.loss) },
    {
      label: "Running time",
      value: `${view.running_time_minutes} min${view.resumed ? ` in ${view.resumed.times + 1} attempts` : ""}`,
    },
    {
      label: "Processes",
      value: Object.entries(view.processes)
        .map(([name, state]) => `${name} ${state}`)
        .join(", "),
    },
    { label: "Started by", value: personRef(view.created_by) },
  ];
  if (view.slurm) fields.splice(5, 0, { label: "Slurm job", value: slurmJobText(view.slurm) });
  if (view.forked_from)
    fields.push({
      label: "Forked from",
      value: `run ${view.forked_from.run_id}${view.forked_from.step === undefined ? "" : ` at step ${view.forked_from.step}`}`,
    });
  if (view.resumed) {
    const { times, by, step } = view.resumed;
    fields.push({
      label: "Resumed",
      value:
        `${step === undefined ? "" : `at step ${step} `}${by ? `by ${personRef(by)}` : ""}${times > 1 ? ` (${times} times)` : ""}`.trim(),
    });
  }
  const m = view.wandb.metrics;
  if (m?.percentCorrect != null) fields.push({ label: "Percent correct", value: fmt(m.percentCorrect) });
  if (m?.evalPercentCorrect != null) fields.push({ label: "Eval percent correct", value: fmt(m.evalPercentCorrect) });
  if (view.stalled)
    fields.push({
      label: "Progress",
      value: `no progress for ${view.stalled.minutes} min, last step ${view.stalled.last_step}`,
    });
  if (view.queue_size !== null) fields.push({ label: "Queue", value: String(view.queue_size) });
  if (view.stopped_by) fields.push({ label: "Stopped by", value: personRef(view.stopped_by) });
  // The few reasons there are (one channel, one bot): each says what to do, so a person can make the next one arrive.
  for (const u of (view.undelivered ?? []).slice(0, 3)) {
    fields.push({
      label: `${UNDELIVERED_LABELS[u.kind]} not delivered`,
      value: u.count > 1 ? `${u.why} (${u.count} messages)` : u.why,
    });
  }
  return fields;
}

export function wandbLinks(view: RunStatusView): ReplyLink[] {
  return view.wandb.url ? [{ label: "WandB run", url: view.wandb.url }] : [];
}

export function runButtons(run: { id: string; status: RunRow["status"] }): ReplyButton[] {
  const buttons: ReplyButton[] = [{ kind: "command", label: "Status", command: `/rl status ${run.id}` }];
  if (["queued", "starting", "running"].includes(run.status))
    buttons.push({ kind: "command", label: "Stop", command: `/rl stop ${run.id}`, style: "danger" });
  return buttons;
}

// What a run's notice says: the reply the lifecycle queues in the outbox with the transition that owes it.
import { formatDuration } from "../../commands/format-value.ts";
import { buildWandbRunUrl } from "../metrics/wandb-url.ts";
import { personRef, type Reply, type ReplyLink } from "../reply.ts";
import type { RunEvent } from "../training/run-events.ts";

const TITLES: Record<RunEvent["kind"], string> = {
  queued: "⏳ Run queued",
  started: "🏃 Run started",
  failed: "❌ Run failed",
  completed: "✅ Run completed",
  stopped: "⏹ Run stopped",
  lost: "❓ Run lost",
};

/** Where WandB pages live: the app URL and, when set, the entity (WANDB_ENTITY) that run and group pages need. */
export interface NoticeWandb {
  appUrl: string;
  entity?: string;
}

/** The run's WandB page when its run name is known, else its group's page (known from entity, project and group). */
function wandbLink(run: RunEvent["run"], wandb: NoticeWandb | undefined): ReplyLink | undefined {
  if (!wandb?.entity || !run.wandbProject) return undefined;
  if (run.wandbRunName) return { label: "WandB run", url: buildWandbRunUrl(wandb.appUrl, wandb.entity, run.wandbProject, run.wandbRunName) };
  if (!run.wandbGroup) return undefined;
  const segments = [wandb.entity, run.wandbProject, "groups", run.wandbGroup].map((s) => encodeURIComponent(s));
  return { label: "WandB group", url: `${wandb.appUrl.replace(/\/+$/, "")}/${segments.join("/")}` };
}

export function noticeReply(event: RunEvent, redact: (text: string) => string, wandb?: NoticeWandb): Reply {
  const { run } = event;
  const fields = [
    { label: "Run", value: run.id },
    { label: "Environment", value: run.environment },
  ];
  if (event.kind === "started" || event.kind === "queued") fields.push({ label: "Steps", value: String(run.totalSteps ?? "?") });
  fields.push({ label: "Started by", value: personRef(run.createdBy) });
  const ended = event.kind === "completed" || event.kind === "failed" || event.kind === "stopped" || event.kind === "lost";
  if (ended && run.startedAt !== undefined) fields.push({ label: "Duration", value: formatDuration((run.endedAt ?? run.startedAt) - run.startedAt) });
  if (ended) fields.push({ label: "Logs", value: `/rl logs ${run.id}` });
  if (event.kind === "started" && run.wandbRunName) fields.push({ label: "WandB run", value: `${run.wandbProject}/${run.wandbRunName}` });
  if (event.component) fields.push({ label: "Component", value: event.component });
  if (event.exitCode !== undefined || event.signal) fields.push({ label: "Exit", value: event.signal ?? String(event.exitCode) });
  if (event.kind === "stopped" && run.stoppedBy) fields.push({ label: "Stopped by", value: personRef(run.stoppedBy) });
  const buttons = [{ label: "Status", command: `/rl status ${run.id}` }];
  if (event.kind === "started" || event.kind === "queued") buttons.push({ label: "Stop", command: `/rl stop ${run.id}`, style: "danger" } as never);
  if (event.kind === "completed" || event.kind === "failed") buttons.push({ label: "Results", command: `/rl results ${run.id}` });
  const link = wandbLink(run, wandb);
  return {
    title: `${TITLES[event.kind]}: ${run.id} (${run.environment})`,
    text: redact(event.message),
    fields,
    blocks: event.logTail?.length ? [{ kind: "code", title: `Last lines of the ${event.component} log`, content: redact(event.logTail.join("\n")) }] : undefined,
    buttons,
    ...(link ? { links: [link] } : {}),
  };
}

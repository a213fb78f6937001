// What a run's notice says: the reply the lifecycle queues in the outbox with the transition that owes it.
import { personRef, type Reply } from "../reply.ts";
import type { RunEvent } from "../training/run-events.ts";

const TITLES: Record<RunEvent["kind"], string> = {
  queued: "⏳ Run queued",
  started: "🏃 Run started",
  failed: "❌ Run failed",
  completed: "✅ Run completed",
  stopped: "⏹ Run stopped",
  lost: "❓ Run lost",
};

export function noticeReply(event: RunEvent, redact: (text: string) => string): Reply {
  const { run } = event;
  const fields = [
    { label: "Run", value: run.id },
    { label: "Environment", value: run.environment },
  ];
  if (event.kind === "started" || event.kind === "queued") fields.push({ label: "Steps", value: String(run.totalSteps ?? "?") }, { label: "Started by", value: personRef(run.createdBy) });
  if (event.kind === "started" && run.wandbRunName) fields.push({ label: "WandB run", value: `${run.wandbProject}/${run.wandbRunName}` });
  if (event.component) fields.push({ label: "Component", value: event.component });
  if (event.exitCode !== undefined || event.signal) fields.push({ label: "Exit", value: event.signal ?? String(event.exitCode) });
  if (event.kind === "stopped" && run.stoppedBy) fields.push({ label: "Stopped by", value: personRef(run.stoppedBy) });
  const buttons = [{ label: "Status", command: `/rl status ${run.id}` }];
  if (event.kind === "started" || event.kind === "queued") buttons.push({ label: "Stop", command: `/rl stop ${run.id}`, style: "danger" } as never);
  if (event.kind === "completed" || event.kind === "failed") buttons.push({ label: "Results", command: `/rl results ${run.id}` });
  return {
    title: `${TITLES[event.kind]}: ${run.id} (${run.environment})`,
    text: redact(event.message),
    fields,
    blocks: event.logTail?.length ? [{ kind: "code", title: `Last lines of the ${event.component} log`, content: redact(event.logTail.join("\n")) }] : undefined,
    buttons,
  };
}

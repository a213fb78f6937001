// What a watchdog alert says: the finding, its evidence (the curve, the best and worst rollout of the latest step, the
// last healthy checkpoint) and a proposal as buttons (console: the commands to type). Nothing runs without a click,
// and a click runs the command as the clicker, through its usual confirmation, approval and budget.
import type { RunRow } from "../../db/runs.ts";
import type { Reply, ReplyButton, ReplyField } from "../reply.ts";
import { sampleGist } from "../stacks/describe-samples.ts";
import type { Checkpoint, Sample } from "../stacks/training-stack.ts";
import type { Finding, Point } from "./signals.ts";
import { RULES } from "./watchdog-rules.ts";

export interface Evidence {
  run: RunRow;
  finding: Finding;
  /** The curve the finding is about (the reward's, or the entropy's or length's). */
  curve: { title: string; points: readonly Point[] };
  /** The checkpoint proposed to fork from: the newest at or before the last healthy step. */
  checkpoint?: Checkpoint;
  /** The run's stack can start a run from a checkpoint. */
  forkable: boolean;
  samples?: { step: number; best?: Sample; worst?: Sample };
}

/** Characters of a completion's start each sample shows. */
const GIST_CHARS = 160;

/** The newest checkpoint saved at or before `step`. */
export function healthyCheckpoint(saved: readonly Checkpoint[], step: number | undefined): Checkpoint | undefined {
  if (step === undefined) return undefined;
  return saved.filter((c) => c.step <= step).at(-1);
}

function evidenceFields(e: Evidence): ReplyField[] {
  const fields: ReplyField[] = [];
  const { checkpoint, samples } = e;
  fields.push({
    label: "Last healthy checkpoint",
    value: checkpoint
      ? `${checkpoint.name} at step ${checkpoint.step}: ${checkpoint.path}`
      : "none saved before the trouble began (/rl checkpoints " + e.run.id + ")",
  });
  if (samples?.best)
    fields.push({ label: `Best rollout of step ${samples.step}`, value: sampleGist(samples.best, GIST_CHARS) });
  const { best, worst } = samples ?? {};
  if (worst && best && (worst.group !== best.group || worst.index !== best.index))
    fields.push({ label: `Worst rollout of step ${samples!.step}`, value: sampleGist(worst, GIST_CHARS) });
  return fields;
}

export function watchdogAlert(e: Evidence): Reply {
  const { run, finding, checkpoint } = e;
  const signal = finding.signal;
  const fork = checkpoint && e.forkable ? `/rl fork ${run.id} ${checkpoint.name}` : undefined;
  const buttons: ReplyButton[] = [{ kind: "command", label: "Stop", command: `/rl stop ${run.id}`, style: "danger" }];
  if (fork) buttons.push({ kind: "command", label: `Fork from ${checkpoint!.name}`, command: fork, style: "primary" });
  buttons.push({ kind: "command", label: "Ignore", command: `/rl notify watchdog ${signal} ignore=${run.id}` });
  const proposal = [
    "Proposed, and only done on a click (each asks to confirm as the command does): Stop ends the run",
    fork
      ? `; Fork starts a new run from ${checkpoint!.name} (step ${checkpoint!.step}), the last checkpoint before the trouble (to change fields too, type ${fork} field=value)`
      : "",
    `; Ignore stops this signal's alerts for the run.`,
  ].join("");
  return {
    title: `🚨 ${RULES[signal].title}: run ${run.id} (${run.environment})`,
    text: `${finding.message}\n${proposal}`,
    fields: evidenceFields(e),
    ...(e.curve.points.length > 1
      ? {
          chart: {
            title: `${e.curve.title}, run ${run.id}`,
            points: e.curve.points.map((p) => ({ x: p.step, y: p.value })),
          },
        }
      : {}),
    buttons,
    data: {
      run_id: run.id,
      signal,
      message: finding.message,
      checkpoint: checkpoint ? { name: checkpoint.name, step: checkpoint.step, path: checkpoint.path } : null,
      proposals: buttons.map((b) => (b.kind === "command" ? b.command : "")),
    },
  };
}

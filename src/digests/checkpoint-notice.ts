// A "checkpoint saved" note of its own, for a channel that routed checkpoints out of the digest (/rl notify).
import type { OutboxRepo } from "../../db/outbox.ts";
import type { RunRow } from "../../db/runs.ts";
import type { NoticeRouter } from "../notify/notice-router.ts";
import { checkpointLine } from "../stacks/describe-checkpoints.ts";
import type { Checkpoint } from "../stacks/training-stack.ts";

export interface CheckpointNoticeDeps {
  outbox: OutboxRepo;
  router: Pick<NoticeRouter, "route">;
  checkpoints: (run: RunRow) => Promise<Checkpoint[]>;
}

/** Queues the run's newest checkpoint once (its name is in the key); true when one was queued now. */
export async function queueCheckpointNotice(run: RunRow, now: number, deps: CheckpointNoticeDeps): Promise<boolean> {
  const routed = deps.router.route("checkpoint", run);
  if (!routed) return false;
  const latest = (await deps.checkpoints(run)).at(-1);
  if (!latest) return false;
  return deps.outbox.enqueue(
    {
      dedupeKey: `checkpoint:${run.id}:${latest.name}`,
      ...routed,
      kind: "notice",
      runId: run.id,
      reply: {
        title: `💾 Checkpoint saved: run ${run.id} (${run.environment})`,
        text: checkpointLine(latest),
        buttons: [{ kind: "command", label: "Checkpoints", command: `/rl checkpoints ${run.id}` }],
      },
    },
    now,
  );
}

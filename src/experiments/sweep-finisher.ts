// Posts a sweep's comparison into its thread, once, when its last run ends; at start, for sweeps that ended while the bot was down.
import type { OutboxRepo } from "../../db/outbox.ts";
import type { RunsRepo } from "../../db/runs.ts";
import type { SweepsRepo } from "../../db/sweeps.ts";
import type { Logger } from "../log.ts";
import { TERMINAL_STATUSES } from "../training/lifecycle/transitions.ts";
import type { RunEvent } from "../training/run-events.ts";
import type { RunReport } from "../training/run-report.ts";
import { compareRuns } from "./compare-runs.ts";
import { comparisonReply } from "./comparison-reply.ts";

export interface SweepFinisherDeps {
  sweeps: SweepsRepo;
  runs: RunsRepo;
  report: RunReport;
  outbox: OutboxRepo;
  log: Logger;
  now: () => number;
  /** The sweep's message is brought to its last state before the comparison is marked (a crash repeats both). */
  beforeComparison?: (sweepId: string) => Promise<void>;
}

export function createSweepFinisher(deps: SweepFinisherDeps) {
  const { sweeps, runs, log } = deps;
  const inFlight = new Map<string, Promise<void>>();

  async function finish(sweepId: string): Promise<void> {
    const sweep = sweeps.get(sweepId);
    if (!sweep || sweep.comparedAt !== undefined) return;
    const members = runs.listBySweep(sweepId);
    if (members.length === 0 || !members.every((r) => TERMINAL_STATUSES.includes(r.status))) return;
    const reply = comparisonReply(await compareRuns(members, deps.report, deps.now), sweep, true);
    const first = members[0]!;
    await deps.beforeComparison?.(sweepId);
    // Queued before it is marked: a crash in between queues it again at start, and the dedupe key keeps it to one post.
    deps.outbox.enqueue(
      {
        dedupeKey: `comparison:${sweepId}`,
        target: { channel: sweep.channel, thread: first.thread ?? sweep.thread },
        kind: "notice",
        runId: first.id,
        reply,
      },
      deps.now(),
    );
    sweeps.markCompared(sweepId, deps.now());
    log.info("sweep finished; comparison queued", { sweepId, runs: members.length });
  }

  const once = (sweepId: string): Promise<void> => {
    const running = inFlight.get(sweepId);
    if (running) return running;
    const next = finish(sweepId)
      .catch((err: unknown) => log.error("posting a sweep's comparison failed", { sweepId, err }))
      .finally(() => inFlight.delete(sweepId));
    inFlight.set(sweepId, next);
    return next;
  };

  return {
    /** For the run manager's events: a sweep run that ended may have been the sweep's last. */
    onEvent(event: RunEvent): void {
      if (event.run.sweepId && TERMINAL_STATUSES.includes(event.run.status)) void once(event.run.sweepId);
    },
    /** Sweeps whose last run ended without a comparison (the bot was down, or crashed in between). */
    async catchUp(): Promise<void> {
      for (const sweep of sweeps.listUncompared()) await once(sweep.id);
    },
    /** Resolves when no comparison is being built (shutdown, tests). */
    async idle(): Promise<void> {
      await Promise.all(inFlight.values());
    },
  };
}

export type SweepFinisher = ReturnType<typeof createSweepFinisher>;

// The one place a run's state changes: each change, the notice it owes and the process actions it owes commit together.
import type { OutboxRepo } from "../../../db/outbox.ts";
import type { Db } from "../../../db/open-database.ts";
import type { RunActionsRepo } from "../../../db/run-actions.ts";
import type { Component } from "../../../db/run-processes.ts";
import type { NewRun, RunPatch, RunRow, RunsRepo, RunStatus } from "../../../db/runs.ts";
import { noticeReply, type NoticeWandb } from "./run-notices.ts";
import { foldsIntoSweep } from "./sweep-folding.ts";
import type { Logger } from "../../log.ts";
import type { RunEvent, RunEventListener } from "../run-events.ts";
import { crashPoint, type CrashPoint } from "../../process/crash-point.ts";
import type { NoticeRouter } from "../../notify/notice-router.ts";
import type { NoticeKind } from "../../../db/notify-settings.ts";

export const LIVE_STATUSES: readonly RunStatus[] = ["starting", "running", "stopping"];
export const TERMINAL_STATUSES: readonly RunStatus[] = ["completed", "failed", "stopped", "lost"];

/** The notice a transition owes, without the run (the committed row is put in). */
export type Notice = Omit<RunEvent, "run">;

export interface Change {
  notice?: Notice;
  /** Whatever of the run still runs is to be stopped after the commit, in its stack's stop order. */
  stopAll?: boolean;
}

export interface TransitionsDeps {
  db: Db;
  runs: RunsRepo;
  outbox: OutboxRepo;
  actions: RunActionsRepo;
  log: Logger;
  now: () => number;
  redact: (text: string) => string;
  /** Where WandB pages live, for the links in notices. */
  wandb?: NoticeWandb;
  /** The order a run's processes are stopped in (its training stack's). */
  stopOrderOf: (run: RunRow) => readonly Component[];
  /** Where each kind of notice goes (/rl notify); without it every notice goes to the run's thread. */
  router?: Pick<NoticeRouter, "route">;
}

/** The /rl notify kind a run event's notice counts as. */
function noticeKindOf(kind: RunEvent["kind"]): NoticeKind {
  if (kind === "queued" || kind === "resumed") return "started";
  if (kind === "lost") return "failed";
  return kind;
}

export function createTransitions(deps: TransitionsDeps) {
  const { db, runs, outbox, actions, log, now } = deps;
  const listeners = new Set<RunEventListener>();

  const record = (run: RunRow, change: Change): void => {
    const event: RunEvent | undefined = change.notice && { ...change.notice, run };
    // A sweep run's routine notices only move the sweep's message (sweep-board.ts); its failures still post.
    const folded = event !== undefined && foldsIntoSweep({ kind: event.kind, run });
    // A kind turned off (/rl notify) queues nothing; the run's change still commits.
    const routed =
      event &&
      !folded &&
      (deps.router
        ? deps.router.route(noticeKindOf(event.kind), run)
        : { target: { channel: run.channel, thread: run.thread } });
    if (event && routed) {
      outbox.enqueue(
        {
          // Each attempt of a resumed run has its own notices (a run failed, resumed and failed again hears both).
          dedupeKey: run.attempt ? `notice:${run.id}:${run.attempt}:${event.kind}` : `notice:${run.id}:${event.kind}`,
          ...routed,
          kind: "notice",
          runId: run.id,
          reply: noticeReply(event, deps.redact, deps.wandb),
        },
        now(),
      );
    }
    if (change.stopAll) actions.oweStops(run.id, deps.stopOrderOf(run), now());
  };

  // Listeners hear of a change only once it is committed; what they do cannot undo it.
  const announce = (run: RunRow, change: Change): void => {
    crashPoint(`committed:${run.status}` as CrashPoint);
    if (!change.notice) return;
    const event: RunEvent = { ...change.notice, run };
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (err) {
        log.error("run event listener failed", { err, kind: event.kind, runId: run.id });
      }
    }
  };

  const moveTx = db.transaction(
    (
      id: string,
      from: readonly RunStatus[],
      patch: RunPatch,
      change: Change,
      admit?: () => void,
    ): RunRow | undefined => {
      admit?.();
      const run = runs.transition(id, from, patch);
      if (run) record(run, change);
      return run;
    },
  );

  const createTx = db.transaction((run: NewRun, patch: RunPatch, change: Change, admit?: () => void): RunRow => {
    admit?.();
    runs.insert(run);
    const row = runs.update(run.id, patch);
    record(row, change);
    return row;
  });

  return {
    /**
     * Compare-and-set from one of `from` to the patch's status; undefined when the run was not in `from` (someone else
     * moved it). `admit` (a budget check) runs first in the same write transaction and may refuse by throwing.
     */
    move(
      id: string,
      from: readonly RunStatus[],
      patch: RunPatch,
      change: Change = {},
      admit?: () => void,
    ): RunRow | undefined {
      const run = moveTx.immediate(id, from, patch, change, admit);
      if (run) announce(run, change);
      return run;
    },
    /** A new run, with its first notice (queued) when it has one; `admit` as for move. */
    create(run: NewRun, patch: RunPatch, change: Change = {}, admit?: () => void): RunRow {
      const row = createTx.immediate(run, patch, change, admit);
      crashPoint("run-created");
      if (change.notice) announce(row, change);
      return row;
    },
    onEvent(listener: RunEventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type Transitions = ReturnType<typeof createTransitions>;

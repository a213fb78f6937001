// Keeps a sweep's message living: its runs' states put as an owed edit on every change, and while runs train.
import type { ChannelKey } from "../../db/channel-key.ts";
import type { MessageEditsRepo } from "../../db/message-edits.ts";
import type { RunRow, RunsRepo } from "../../db/runs.ts";
import type { SweepRow, SweepsRepo } from "../../db/sweeps.ts";
import type { Logger } from "../log.ts";
import type { EditSender } from "../outbox/edit-sender.ts";
import type { RunEvent } from "../training/run-events.ts";
import type { RunReport } from "../training/run-report.ts";
import { sweepBoardReply, type RunProgress } from "./sweep-board-reply.ts";

export interface SweepBoardDeps {
  sweeps: SweepsRepo;
  runs: RunsRepo;
  report: Pick<RunReport, "status">;
  edits: MessageEditsRepo;
  sender: Pick<EditSender, "kick" | "gapMs">;
  log: Logger;
  now: () => number;
  /** How often the steps and rewards of training runs are read again (default 10 s). */
  tickMs?: number;
}

const boardKey = (sweepId: string): string => `sweep:${sweepId}`;

export function createSweepBoard(deps: SweepBoardDeps) {
  const { sweeps, runs, log } = deps;
  // An ended run's step and reward do not change: read once.
  const ended = new Map<string, RunProgress>();
  const chains = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;

  async function progressOf(members: readonly RunRow[]): Promise<Map<string, RunProgress>> {
    const progress = new Map<string, RunProgress>();
    for (const run of members) {
      if (run.startedAt === undefined && run.trainedMs === 0) continue;
      const known = ended.get(run.id);
      if (known) {
        progress.set(run.id, known);
        continue;
      }
      try {
        const view = await deps.report.status(run);
        const read = { step: view.step, totalSteps: view.total_steps, reward: view.reward_mean };
        progress.set(run.id, read);
        if (run.status === "completed" || run.status === "failed") ended.set(run.id, read);
      } catch (err) {
        log.warn("reading a sweep run's progress failed", { runId: run.id, err });
      }
    }
    return progress;
  }

  async function refresh(sweepId: string): Promise<void> {
    const sweep = sweeps.get(sweepId);
    if (!sweep?.message) return;
    const members = runs.listBySweep(sweepId);
    const reply = sweepBoardReply(sweep, members, await progressOf(members));
    const ref = {
      channel: sweep.channel,
      id: sweep.message.id,
      ...(sweep.message.thread ? { thread: sweep.message.thread } : {}),
    };
    if (deps.edits.put(boardKey(sweepId), ref, reply, deps.now(), deps.sender.gapMs)) deps.sender.kick();
  }

  /** One refresh of a sweep at a time, in order: a slower read never overwrites a newer state. */
  function queue(sweepId: string): Promise<void> {
    const next = (chains.get(sweepId) ?? Promise.resolve())
      .then(() => refresh(sweepId))
      .catch((err: unknown) => log.error("updating a sweep's message failed", { sweepId, err }));
    chains.set(sweepId, next);
    void next.finally(() => {
      if (chains.get(sweepId) === next) chains.delete(sweepId);
    });
    return next;
  }

  const living = (): SweepRow[] => sweeps.listUncompared().filter((s) => s.message);

  return {
    onEvent(event: RunEvent): void {
      if (event.run.sweepId) void queue(event.run.sweepId);
    },
    /** A run's message was posted: the first run's is its sweep's message, edited from now on. */
    anchored(runId: string, _channel: ChannelKey, message: { id: string; thread?: string }): Promise<void> {
      const run = runs.get(runId);
      if (!run?.sweepId) return Promise.resolve();
      sweeps.setMessage(run.sweepId, message);
      return queue(run.sweepId);
    },
    /** Each unfinished sweep's message brought up to date (changes while the bot was down), then read on a timer. */
    start(): void {
      for (const sweep of living()) void queue(sweep.id);
      timer ??= setInterval(() => {
        for (const sweep of living())
          if (runs.listBySweep(sweep.id).some((r) => r.status === "running")) void queue(sweep.id);
      }, deps.tickMs ?? 10_000);
      timer.unref();
    },
    /** The last state of a finished sweep is put before its comparison is marked (the finisher calls this). */
    refresh: queue,
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await Promise.all(chains.values());
    },
  };
}

export type SweepBoard = ReturnType<typeof createSweepBoard>;

// Digests and alerts on a schedule: node-cron's digest passes and minute alert checks, queued to the outbox.
import type { ChannelsRepo } from "../../db/channels.ts";
import type { DigestStateRepo } from "../../db/digest-state.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { WandbClient } from "../metrics/wandb-client.ts";
import { wandbPagesOf } from "../metrics/wandb-group-link.ts";
import type { RunManager } from "../training/run-manager.ts";
import type { RunReport } from "../training/run-report.ts";
import type { RunsRepo } from "../../db/runs.ts";
import { createDigestCycle, type CycleOptions, type CycleResult } from "./digest-cycle.ts";
import { loadNodeCron } from "../load-node-cron.ts";
import type { OutboxSender } from "../outbox/outbox-sender.ts";
import type { NoticeRouter } from "../notify/notice-router.ts";
import type { Watchdog } from "../watchdog/watchdog.ts";

export interface DigestsDeps {
  config: Config;
  runs: RunsRepo;
  states: DigestStateRepo;
  outbox: OutboxRepo;
  /** Delivers what a pass queued; its owner starts and stops it. */
  sender: Pick<OutboxSender, "kick">;
  manager: RunManager;
  /** Reads a step's rollouts (redacted) for the samples line of channels that show it. */
  report?: Pick<RunReport, "samples">;
  channels?: Pick<ChannelsRepo, "digestSamples">;
  wandb?: WandbClient;
  log: Logger;
  now: () => number;
  redact: (text: string) => string;
  /** Runs a write as one database transaction. */
  transaction?: <T>(write: () => T) => T;
  /** The scheduler (node-cron's by default); tests pass one they can fire by hand. */
  schedule?: (expression: string, run: () => Promise<void>) => { destroy(): void | Promise<void> };
  /** Where alerts, digests and checkpoint notes go (/rl notify). */
  router?: NoticeRouter;
  /** The training watchdog, called for each running run on every pass. */
  watchdog?: Pick<Watchdog, "check">;
}

// node-cron's noOverlap waits for the promise the task returns.
const cronSchedule = (expression: string, run: () => Promise<void>) =>
  loadNodeCron().schedule(expression, run, { noOverlap: true });
/** Stalls and regressions are looked for every minute, at :30 so as never to meet a digest schedule's :00. */
export const ALERT_CRON = "30 * * * * *";

export function createDigests(deps: DigestsDeps) {
  const cycle = createDigestCycle({
    runs: deps.runs,
    states: deps.states,
    outbox: deps.outbox,
    wandb: deps.wandb,
    wandbPages: wandbPagesOf(deps.config),
    progress: (run) => deps.manager.progress(run),
    checkpoints: (run) => deps.manager.checkpoints(run),
    ...(deps.report && deps.channels
      ? {
          samples: deps.report.samples,
          samplesShown: deps.channels.digestSamples,
        }
      : {}),
    log: deps.log,
    now: deps.now,
    settings: deps.config.digests,
    transaction: deps.transaction,
    router: deps.router,
    watchdog: deps.watchdog,
  });
  const schedule = deps.schedule ?? cronSchedule;
  const tasks: Array<{ destroy(): void | Promise<void> }> = [];

  const passes = new Set<Promise<unknown>>();
  let stopped = false;

  const pass = async (options: CycleOptions = {}): Promise<CycleResult> => {
    const result = await cycle(options);
    if (result.messages + result.alerts > 0) deps.sender.kick();
    return result;
  };
  // One scheduled pass at a time, whichever schedule fires: a pass over many runs can outlast the next tick.
  let scheduled: Promise<void> | undefined;
  const safely = (options: CycleOptions, schedule: string) => (): Promise<void> => {
    // A schedule firing while the bot stops must not start reading a database about to close.
    if (stopped) return Promise.resolve();
    if (scheduled) {
      deps.log.info("a digest pass is still running; this tick is skipped", { schedule });
      return scheduled;
    }
    const running = pass(options).then(
      () => undefined,
      (err: unknown) => deps.log.error("digest pass failed", { err }),
    );
    scheduled = running;
    passes.add(running);
    void running.finally(() => {
      passes.delete(running);
      scheduled = undefined;
    });
    return running;
  };

  return {
    runNow: pass,
    mute(runId: string, muted: boolean): void {
      deps.states.update(runId, { muted });
    },
    isMuted: (runId: string) => deps.states.get(runId).muted,
    /** Start the schedules (the bot does; one-shot commands do not). */
    start(): void {
      stopped = false;
      tasks.push(schedule(deps.config.digests.cron, safely({}, "digests")));
      tasks.push(schedule(ALERT_CRON, safely({ alertsOnly: true }, "alerts")));
    },
    /** Schedules first, then the passes in flight: afterwards no pass touches the database. */
    async stop(): Promise<void> {
      stopped = true;
      for (const t of tasks.splice(0)) await t.destroy();
      await Promise.allSettled([...passes]);
    },
  };
}

export type Digests = ReturnType<typeof createDigests>;

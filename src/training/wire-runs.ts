// Wiring of runs: the local supervisor, the run manager over the stacks (start, queue, stop, recovery) and the run
// report (status, results, samples, with WandB's figures when a key is set).
import type { ChannelKey } from "../../db/channel-key.ts";
import type { ChannelsRepo } from "../../db/channels.ts";
import type { Db } from "../../db/open-database.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import { createRunActionsRepo } from "../../db/run-actions.ts";
import type { RunProcessesRepo } from "../../db/run-processes.ts";
import type { RunsRepo } from "../../db/runs.ts";
import type { SweepsRepo } from "../../db/sweeps.ts";
import type { BudgetGate } from "../budgets/budget-gate.ts";
import type { Config } from "../config.ts";
import type { FeatureSlice } from "../feature-slice.ts";
import type { Logger } from "../log.ts";
import { createWandbClient, type WandbClient } from "../metrics/wandb-client.ts";
import { createWandbLookup } from "../metrics/wandb-lookup.ts";
import type { NoticeRouter } from "../notify/notice-router.ts";
import type { DigestStateRepo } from "../../db/digest-state.ts";
import { createStackRegistry } from "../stacks/stack-registry.ts";
import type { TrainingStack } from "../stacks/training-stack.ts";
import { createLocalSupervisor } from "./local-supervisor.ts";
import { createRunManager, type RunManager } from "./run-manager.ts";
import { createRunReport, type RunReport } from "./run-report.ts";

export interface RunsNeeds {
  db: Db;
  runs: RunsRepo;
  sweeps: SweepsRepo;
  processes: RunProcessesRepo;
  outbox: OutboxRepo;
  channels: ChannelsRepo;
  digestStates: DigestStateRepo;
  log: Logger;
  now: () => number;
  /** What runs are timed by (their start, end and running time): a clock the wall clock's jumps do not move. */
  runNow: () => number;
  redact: (text: string) => string;
  fetch?: typeof globalThis.fetch;
  stacks: { current: TrainingStack; all: TrainingStack[] };
  startableEnvironment(channel: ChannelKey): Promise<{ name: string }>;
  budgets: BudgetGate;
  router: NoticeRouter;
  /** Asks delivery for a pass: notices are queued by the run's transitions themselves, and only sent sooner. */
  kick: () => void;
}

export interface WiredRuns extends FeatureSlice<{ manager: RunManager; report: RunReport }> {
  /** WandB's GraphQL client, when a key is set (the digests read it too). */
  wandb?: WandbClient;
}

export function wireRuns(config: Config, needs: RunsNeeds): WiredRuns {
  const { db, runs, processes, outbox, log, redact } = needs;
  const now = needs.runNow;
  const supervisor = createLocalSupervisor({ processes, log, now, stopGraceMs: config.stopGraceMs });
  const manager = createRunManager({
    config,
    db,
    stacks: createStackRegistry(needs.stacks.current, needs.stacks.all),
    runs,
    sweeps: needs.sweeps,
    processes,
    actions: createRunActionsRepo(db),
    outbox,
    channels: needs.channels,
    startableEnvironment: needs.startableEnvironment,
    supervisor,
    log,
    now,
    redact,
    budgets: needs.budgets,
    router: needs.router,
  });
  manager.onEvent(() => needs.kick());
  const wandb = config.keys.wandb
    ? createWandbClient({
        apiKey: config.keys.wandb,
        baseUrl: config.wandb.baseUrl,
        entity: config.wandb.entity,
        appUrl: config.wandb.appUrl,
        fetch: needs.fetch,
      })
    : undefined;
  const report = createRunReport({
    runs,
    processes,
    manager,
    wandb: createWandbLookup(wandb, now),
    digestStates: needs.digestStates,
    outbox,
    stallMs: config.digests.stallMs,
    now,
    redact,
  });
  return {
    services: { manager, report },
    wandb,
    start: () => void manager.warmUp(),
    stop: () => manager.shutdown(),
  };
}

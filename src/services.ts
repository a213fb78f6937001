// Builds the core from a Config: the database and its repositories, then each feature from its own wiring file, in the
// order they need one another. Knows no chat platform.
import { createAuditRepo } from "../db/audit.ts";
import { createChannelsRepo } from "../db/channels.ts";
import { createConfirmationsRepo } from "../db/confirmations.ts";
import { createDigestStateRepo } from "../db/digest-state.ts";
import { openDatabase, type Db } from "../db/open-database.ts";
import { createOutboxRepo, type OutboxRepo } from "../db/outbox.ts";
import { createRateLimitsRepo } from "../db/rate-limits.ts";
import { createReplyPagesRepo } from "../db/reply-pages.ts";
import { createRequestsRepo } from "../db/requests.ts";
import { createRunProcessesRepo, type RunProcessesRepo } from "../db/run-processes.ts";
import { createRunsRepo } from "../db/runs.ts";
import { createSweepsRepo } from "../db/sweeps.ts";
import { watchDatabaseFile, type DatabaseFileWatch } from "../db/watch-database-file.ts";
import { wireApprovals } from "./approvals/wire-approvals.ts";
import type { ApprovalExpiry } from "./approvals/approval-expiry.ts";
import { wireBudgets } from "./budgets/wire-budgets.ts";
import type { Config } from "./config.ts";
import { wireDigests } from "./digests/wire-digests.ts";
import { wireEnvironmentOps } from "./environment-ops/wire-environment-ops.ts";
import type { SweepBoard } from "./experiments/sweep-board.ts";
import { wireExperiments } from "./experiments/wire-experiments.ts";
import type { FeatureSlice } from "./feature-slice.ts";
import { wireInference } from "./inference/wire-inference.ts";
import { loadLockedFields } from "./locked-fields.ts";
import { createLogger, type Logger } from "./log.ts";
import { wireNotify } from "./notify/wire-notify.ts";
import type { Operations } from "./operations.ts";
import type { EditSender } from "./outbox/edit-sender.ts";
import type { OutboxSender } from "./outbox/outbox-sender.ts";
import { wireDelivery } from "./outbox/wire-delivery.ts";
import { crashPoint } from "./process/crash-point.ts";
import { createRedactor } from "./redact.ts";
import { wireStacks } from "./stacks/wire-stacks.ts";
import { wireRuns } from "./training/wire-runs.ts";
import { steadyClock } from "./values/steady-clock.ts";
import { wireWatchdog } from "./watchdog/wire-watchdog.ts";

/** The whole core: the operations, plus what only the wiring, the lifecycle and delivery touch. */
export interface Services extends Operations {
  db: Db;
  /** The clock runs are timed by: the wall clock at start, advanced monotonically (src/values/steady-clock.ts). */
  runNow: () => number;
  /** Stops the database's statements once its file is deleted or replaced; the bot checks it on a timer too. */
  dbWatch?: DatabaseFileWatch;
  processes: RunProcessesRepo;
  outbox: OutboxRepo;
  /** Delivers the outbox through the posters the platforms register; the bot starts it. */
  outboxSender: OutboxSender;
  /** Edits expired approval requests' messages on a timer; the bot starts it. */
  approvalExpiry: ApprovalExpiry;
  /** Delivers the edits owed to posted messages through the editors the platforms register; the bot starts it. */
  editSender: EditSender;
  /** Keeps each sweep's message up to date with its runs; the bot starts it. */
  sweepBoard: SweepBoard;
  /** Starts every feature's timers and loops, once the platforms are up (one-shot commands never do). */
  start(): void;
  close(): Promise<void>;
}

export interface ServiceOptions {
  now?: () => number;
  log?: Logger;
  /** The environment training processes inherit (tests add fault settings). */
  processEnv?: NodeJS.ProcessEnv;
  /** How long a process that shows no evidence of work yet must stay alive to count as started (default 2 s). */
  settleMs?: number;
  fetch?: typeof globalThis.fetch;
  /** Replaces node-cron for the digest schedules (tests fire them by hand). */
  schedule?: (expression: string, run: () => Promise<void>) => { destroy(): void | Promise<void> };
  /** Every SQL statement the database runs, its parameters filled in (the query-plan test). */
  traceSql?: (sql: string) => void;
}

/** How long an environment (or a recipe) must stay alive to count as ready when it shows no evidence of work yet. */
const SETTLE_MS = 2000;

/** The database, its repositories and what every feature shares: clock, logger, redactor, locked fields. */
function wireCore(config: Config, options: ServiceOptions) {
  const now = options.now ?? Date.now;
  // Runs are timed by a clock the wall clock's jumps do not move (a test's clock, when it gives one).
  const runNow = options.now ?? steadyClock();
  const redact = createRedactor(config.secrets);
  const log = options.log ?? createLogger(config.logLevel, redact);
  const lockedFields = loadLockedFields(config.lockedFieldsPath);
  const db = openDatabase(config.databasePath, undefined, {
    beforePublish: () => crashPoint("database-built"),
    traceSql: options.traceSql,
  });
  const dbWatch = config.databasePath === ":memory:" ? undefined : watchDatabaseFile(db, config.databasePath);
  return {
    config,
    now,
    runNow,
    redact,
    log,
    lockedFields,
    db,
    dbWatch,
    channels: createChannelsRepo(db, now),
    audit: createAuditRepo(db, now),
    runs: createRunsRepo(db, now),
    sweeps: createSweepsRepo(db, now),
    processes: createRunProcessesRepo(db),
    outbox: createOutboxRepo(db),
    digestStates: createDigestStateRepo(db),
    rateLimits: createRateLimitsRepo(db),
    confirmations: createConfirmationsRepo(db, { now, ttlMs: config.confirmTtlMs, redact }),
    pages: createReplyPagesRepo(db, now),
    requests: createRequestsRepo(db, now),
  };
}

export function createServices(config: Config, options: ServiceOptions = {}): Services {
  const { digestStates, ...core } = wireCore(config, options);
  const needs = { ...core, digestStates, fetch: options.fetch, schedule: options.schedule };
  const settleMs = options.settleMs ?? SETTLE_MS;
  const stacks = wireStacks(config, { ...core, processEnv: options.processEnv, settleMs });
  const environments = wireEnvironmentOps(config, { ...core, stacks });
  const { env } = environments.services;
  const delivery = wireDelivery(core);
  const kick = () => delivery.services.outboxSender.kick();
  const budgets = wireBudgets(config, core);
  const notify = wireNotify(core);
  const runsNeeds = { ...needs, stacks, startableEnvironment: env.startableEnvironment, kick };
  const runs = wireRuns(config, { ...runsNeeds, budgets: budgets.services.budgets, router: notify.router });
  const fed = { ...needs, ...delivery.services, ...runs.services, edits: delivery.edits, kick };
  const watchdog = wireWatchdog({ ...fed, router: notify.router });
  const digests = wireDigests(config, {
    ...fed,
    wandb: runs.wandb,
    router: notify.router,
    watchdog: watchdog.services.watchdog,
  });
  const approvals = wireApprovals(config, fed);
  const experiments = wireExperiments(fed);
  const inference = wireInference(core);
  // Started in this order once the platforms are up; stopped in this order, and the database closed after them.
  const slices: FeatureSlice<object>[] = [digests, delivery, approvals, runs, experiments, stacks];
  let closing: Promise<void> | undefined;
  return {
    ...core,
    ...stacks.services,
    ...environments.services,
    ...delivery.services,
    ...budgets.services,
    ...notify.services,
    ...runs.services,
    ...digests.services,
    ...watchdog.services,
    ...approvals.services,
    ...experiments.services,
    ...inference.services,
    start: () => slices.forEach((slice) => slice.start?.()),
    close: () => (closing ??= closeInOrder(slices, core.db)),
  };
}

/** Timers and deliveries first, then the runs being started, and the database last: nothing may touch it once closed. */
async function closeInOrder(slices: FeatureSlice<object>[], db: Db): Promise<void> {
  try {
    for (const slice of slices) await slice.stop?.();
  } finally {
    // Even when a step failed (its writes refused by a database file gone from under it): the handle is let go.
    db.close();
  }
}

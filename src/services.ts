// Builds the core from a Config: database, repositories, discovery, operations, logger. Knows no chat platform.
import { availableParallelism } from "node:os";
import path from "node:path";
import { createAuditRepo } from "../db/audit.ts";
import { createChannelsRepo } from "../db/channels.ts";
import { createApprovalsRepo } from "../db/approvals.ts";
import { createConfirmationsRepo } from "../db/confirmations.ts";
import { createRequestsRepo } from "../db/requests.ts";
import { createReplyPagesRepo } from "../db/reply-pages.ts";
import { createDigestStateRepo } from "../db/digest-state.ts";
import { createInferenceTestsRepo } from "../db/inference-tests.ts";
import { createOutboxRepo, type OutboxRepo } from "../db/outbox.ts";
import { createRateLimitsRepo } from "../db/rate-limits.ts";
import { createRunActionsRepo } from "../db/run-actions.ts";
import { createRunProcessesRepo, type RunProcessesRepo } from "../db/run-processes.ts";
import { createRunsRepo } from "../db/runs.ts";
import { createSweepsRepo } from "../db/sweeps.ts";
import { openDatabase, type Db } from "../db/open-database.ts";
import { watchDatabaseFile, type DatabaseFileWatch } from "../db/watch-database-file.ts";
import type { Config } from "./config.ts";
import type { Operations } from "./operations.ts";
import { createDigests } from "./digests/digests.ts";
import { createEnvironmentCatalog } from "./environments/resolution/catalog.ts";
import { createProcessScanner } from "./environments/discovery-process/process-scanner.ts";
import { atroposlibLookup } from "./environments/resolution/atroposlib-lookup.ts";
import { createEnvironmentOps } from "./environment-ops.ts";
import { loadLockedFields } from "./locked-fields.ts";
import { describeUnknownLockedKeys } from "./stacks/atropos-tinker/check-locked-fields.ts";
import { crashPoint } from "./process/crash-point.ts";
import { createLogger, type Logger } from "./log.ts";
import { createWandbClient } from "./metrics/wandb-client.ts";
import { createWandbLookup } from "./metrics/wandb-lookup.ts";
import { createRedactor } from "./redact.ts";
import { createLocalSupervisor } from "./training/local-supervisor.ts";
import { createRunManager } from "./training/run-manager.ts";
import { createBudgetGate } from "./budgets/budget-gate.ts";
import { createBudgetsRepo } from "../db/budgets.ts";
import { createNotifySettingsRepo } from "../db/notify-settings.ts";
import { createNoticeRouter } from "./notify/notice-router.ts";
import { createAtroposStack } from "./stacks/atropos-tinker/atropos-stack.ts";
import { shownRunNames, writtenEnvValues } from "./stacks/atropos-tinker/run-config.ts";
import { imposedByTrainer } from "./stacks/atropos-tinker/trainer-batch-size.ts";
import { createStackRegistry } from "./stacks/stack-registry.ts";
import { createCookbookStack } from "./stacks/tinker-cookbook/cookbook-stack.ts";
import { createRecipeCatalogScanner } from "./stacks/tinker-cookbook/recipe-catalog-scanner.ts";
import { createRunReport } from "./training/run-report.ts";
import { createSweepFinisher } from "./experiments/sweep-finisher.ts";
import { createSweepBoard, type SweepBoard } from "./experiments/sweep-board.ts";
import { createEditSender, type EditSender } from "./outbox/edit-sender.ts";
import { createMessageEditsRepo } from "../db/message-edits.ts";
import { createOutboxSender, type OutboxSender } from "./outbox/outbox-sender.ts";
import { createApprovalExpiry, type ApprovalExpiry } from "./approvals/approval-expiry.ts";
import { closedRequestReply } from "./approvals/closed-request.ts";

/** The whole core: the operations, plus what only the wiring, the lifecycle and delivery touch. */
export interface Services extends Operations {
  db: Db;
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
}

/** How long an environment (or a recipe) must stay alive to count as ready when it shows no evidence of work yet. */
const SETTLE_MS = 2000;

export function createServices(config: Config, options: ServiceOptions = {}): Services {
  const now = options.now ?? Date.now;
  const redact = createRedactor(config.secrets);
  const log = options.log ?? createLogger(config.logLevel, redact);
  const lockedFields = loadLockedFields(config.lockedFieldsPath);
  if (config.stack !== "tinker-cookbook")
    for (const note of describeUnknownLockedKeys(lockedFields)) log.warn(note, { file: config.lockedFieldsPath });
  const db = openDatabase(config.databasePath, undefined, { beforePublish: () => crashPoint("database-built") });
  const dbWatch = config.databasePath === ":memory:" ? undefined : watchDatabaseFile(db, config.databasePath);
  const channels = createChannelsRepo(db, now);
  const audit = createAuditRepo(db, now);
  // Discovery parses in a process of its own at a lower priority (and, on a machine with cores to spare, in helper
  // threads there), one core left to the bot.
  const cookbook = config.stack === "tinker-cookbook";
  const scanner = cookbook
    ? createRecipeCatalogScanner(lockedFields, { maxFileBytes: config.scanMaxFileBytes })
    : createProcessScanner({
        lockedEnv: lockedFields.env,
        recursive: config.scanRecursive,
        maxFileBytes: config.scanMaxFileBytes,
        parseThreads: Math.max(1, availableParallelism() - 1),
        atroposlib: atroposlibLookup(config),
        trainerConfigFile: path.join(config.trainingRoot, "tinker_atropos", "config.py"),
      });
  const catalog = createEnvironmentCatalog(config.environmentsDir, scanner);
  const runs = createRunsRepo(db, now);
  const sweeps = createSweepsRepo(db, now);
  const processes = createRunProcessesRepo(db);
  const atroposStack = createAtroposStack({
    config,
    locked: lockedFields,
    catalog,
    processEnv: options.processEnv,
    envSettleMs: options.settleMs ?? SETTLE_MS,
  });
  const cookbookStack = createCookbookStack({
    config,
    locked: lockedFields,
    processEnv: options.processEnv,
    settleMs: options.settleMs ?? SETTLE_MS,
  });
  const currentStack = cookbook ? cookbookStack : atroposStack;
  const env = createEnvironmentOps({
    catalog,
    channels,
    keys: config.keys,
    isDemoStack: config.isDemoStack,
    redact,
    // The trainer's tinker: fields and the group_size rule are atropos-tinker's; a recipe's fields are all its own.
    stack: currentStack,
    runNamesOf: cookbook ? undefined : (environment) => shownRunNames(environment, config.wandb.project),
    imposedOf: cookbook
      ? undefined
      : (values) => imposedByTrainer(writtenEnvValues(values, lockedFields), config.isDemoStack),
  });
  const supervisor = createLocalSupervisor({ processes, log, now, stopGraceMs: config.stopGraceMs });
  const outbox = createOutboxRepo(db);
  const budgets = createBudgetGate({ budgets: createBudgetsRepo(db), slurmGpus: config.slurm.gpus, now });
  const notify = createNotifySettingsRepo(db);
  const router = createNoticeRouter(notify);
  const manager = createRunManager({
    config,
    db,
    stacks: createStackRegistry(currentStack, [atroposStack, cookbookStack]),
    runs,
    sweeps,
    processes,
    actions: createRunActionsRepo(db),
    outbox,
    channels,
    startableEnvironment: env.startableEnvironment,
    supervisor,
    log,
    now,
    redact,
    budgets,
    router,
  });
  const wandbClient = config.keys.wandb
    ? createWandbClient({
        apiKey: config.keys.wandb,
        baseUrl: config.wandb.baseUrl,
        entity: config.wandb.entity,
        appUrl: config.wandb.appUrl,
        fetch: options.fetch,
      })
    : undefined;
  const outboxSender = createOutboxSender({
    outbox,
    log,
    now,
    currentThread: (runId) => runs.get(runId)?.thread,
    fallbackOf: (runId) => {
      const run = runs.get(runId);
      return run && { channel: run.channel, thread: run.thread };
    },
  });
  // Notices are queued by the run's transitions themselves (in the same transaction); here they are only sent sooner.
  manager.onEvent(() => outboxSender.kick());
  const digestStates = createDigestStateRepo(db);
  const report = createRunReport({
    runs,
    processes,
    manager,
    wandb: createWandbLookup(wandbClient, now),
    digestStates,
    outbox,
    stallMs: config.digests.stallMs,
    now,
    redact,
  });
  const digests = createDigests({
    config,
    runs,
    states: digestStates,
    outbox,
    sender: outboxSender,
    manager,
    report,
    channels,
    wandb: wandbClient,
    log,
    now,
    redact,
    schedule: options.schedule,
    transaction: (write) => db.transaction(write)(),
    router,
  });
  const approvals = createApprovalsRepo(db, {
    now,
    ttlMs: config.approvals.ttlMs,
    outbox,
    closedReply: closedRequestReply,
  });
  const approvalExpiry = createApprovalExpiry({ approvals, log, kick: () => outboxSender.kick() });
  // Timers and deliveries first, then the runs being started, and the database last: nothing may touch it once closed.
  const closeInOrder = async () => {
    try {
      await digests.stop();
      approvalExpiry.stop();
      await outboxSender.stop();
      await editSender.stop();
      await manager.shutdown();
      await sweepFinisher.idle();
      await sweepBoard.stop();
      await scanner.close();
    } finally {
      // Even when a step failed (its writes refused by a database file gone from under it): the handle is let go.
      db.close();
    }
  };
  let closing: Promise<void> | undefined;
  const edits = createMessageEditsRepo(db);
  const editSender = createEditSender({ edits, log, now });
  const sweepBoard = createSweepBoard({ sweeps, runs, report, edits, sender: editSender, log, now });
  manager.onEvent((event) => sweepBoard.onEvent(event));
  const sweepFinisher = createSweepFinisher({
    sweeps,
    runs,
    report,
    outbox,
    log,
    now,
    beforeComparison: (sweepId) => sweepBoard.refresh(sweepId),
  });
  manager.onEvent((event) => sweepFinisher.onEvent(event));
  manager.afterRecovery(() => sweepFinisher.catchUp());
  return {
    config,
    db,
    dbWatch,
    log,
    redact,
    lockedFields,
    channels,
    audit,
    catalog,
    env,
    runs,
    sweeps,
    processes,
    rateLimits: createRateLimitsRepo(db),
    budgets,
    notify,
    manager,
    report,
    outbox,
    outboxSender,
    editSender,
    sweepBoard,
    digests,
    inferenceTests: createInferenceTestsRepo(db, now),
    confirmations: createConfirmationsRepo(db, { now, ttlMs: config.confirmTtlMs, redact }),
    approvals,
    approvalExpiry,
    pages: createReplyPagesRepo(db, now),
    requests: createRequestsRepo(db, now),
    now,
    close: () => (closing ??= closeInOrder()),
  };
}

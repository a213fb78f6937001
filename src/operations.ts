// The operations and repositories the core offers to what sits above it (commands, chat mode, adapters): everything
// but the database handle, the process table and the outbox, which the lifecycle and the delivery loop own.
import type { AuditRepo } from "../db/audit.ts";
import type { ChannelsRepo } from "../db/channels.ts";
import type { ApprovalsRepo } from "../db/approvals.ts";
import type { ConfirmationsRepo } from "../db/confirmations.ts";
import type { InferenceTestsRepo } from "../db/inference-tests.ts";
import type { NotifySettingsRepo } from "../db/notify-settings.ts";
import type { RateLimitsRepo } from "../db/rate-limits.ts";
import type { ReplyPagesRepo } from "../db/reply-pages.ts";
import type { RequestsRepo } from "../db/requests.ts";
import type { RunsRepo } from "../db/runs.ts";
import type { SweepsRepo } from "../db/sweeps.ts";
import type { BudgetGate } from "./budgets/budget-gate.ts";
import type { Config } from "./config.ts";
import type { Digests } from "./digests/digests.ts";
import type { EnvironmentOps } from "./environment-ops.ts";
import type { EnvironmentCatalog } from "./environments/resolution/catalog.ts";
import type { LockedFields } from "./locked-fields.ts";
import type { Logger } from "./log.ts";
import type { Redactor } from "./redact.ts";
import type { RunManager } from "./training/run-manager.ts";
import type { RunReport } from "./training/run-report.ts";
import type { Watchdog } from "./watchdog/watchdog.ts";

/** src/services.ts builds it; tests may hand a smaller one. */
export interface Operations {
  config: Config;
  log: Logger;
  redact: Redactor;
  now: () => number;
  lockedFields: LockedFields;
  channels: ChannelsRepo;
  audit: AuditRepo;
  catalog: EnvironmentCatalog;
  env: EnvironmentOps;
  runs: RunsRepo;
  sweeps: SweepsRepo;
  rateLimits: RateLimitsRepo;
  /** Spending limits per channel and person, and what is left of them. */
  budgets: BudgetGate;
  /** Where each kind of notice goes, per channel and per person (/rl notify). */
  notify: NotifySettingsRepo;
  manager: RunManager;
  report: RunReport;
  digests: Digests;
  /** The training watchdog's signals on running runs (docs/watchdog.md), and the runs' ignored signals. */
  watchdog: Watchdog;
  inferenceTests: InferenceTestsRepo;
  /** Pending and answered confirmation prompts (Confirm / Cancel), answered once. */
  confirmations: ConfirmationsRepo;
  /** Starts waiting for a second person (RL_APPROVE_WHEN). */
  approvals: ApprovalsRepo;
  /** Pages of replies too long for one message (Next / Previous). */
  pages: ReplyPagesRepo;
  /** Clients' requests that change something, each run once for its id (commands/answer-request-once.ts). */
  requests: RequestsRepo;
}

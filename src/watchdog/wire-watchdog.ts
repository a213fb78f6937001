// Wiring of the training watchdog: its memory of each run in the database, the run's checkpoints and samples from the
// run manager and report, and where its alerts go (/rl notify). The digest and alert passes call it for each run.
import type { Db } from "../../db/open-database.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import { createWatchdogStateRepo } from "../../db/watchdog-state.ts";
import type { FeatureSlice } from "../feature-slice.ts";
import type { Logger } from "../log.ts";
import type { NoticeRouter } from "../notify/notice-router.ts";
import type { RunManager } from "../training/run-manager.ts";
import type { RunReport } from "../training/run-report.ts";
import { createWatchdog, type Watchdog } from "./watchdog.ts";

export interface WatchdogNeeds {
  db: Db;
  outbox: OutboxRepo;
  router: NoticeRouter;
  manager: RunManager;
  report: RunReport;
  log: Logger;
}

export function wireWatchdog(needs: WatchdogNeeds): FeatureSlice<{ watchdog: Watchdog }> {
  const { db, manager } = needs;
  const watchdog = createWatchdog({
    states: createWatchdogStateRepo(db),
    outbox: needs.outbox,
    router: needs.router,
    checkpoints: (run) => manager.checkpoints(run),
    samples: (run, query) => needs.report.samples(run, query),
    forkable: (run) => manager.stackOf(run).forkField !== undefined,
    log: needs.log,
    transaction: (write) => db.transaction(write)(),
  });
  return { services: { watchdog } };
}

// Wiring of digests and alerts: node-cron's schedules, composed from the run report and WandB, queued to the outbox.
import type { ChannelsRepo } from "../../db/channels.ts";
import type { DigestStateRepo } from "../../db/digest-state.ts";
import type { Db } from "../../db/open-database.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import type { RunsRepo } from "../../db/runs.ts";
import type { Config } from "../config.ts";
import type { FeatureSlice } from "../feature-slice.ts";
import type { Logger } from "../log.ts";
import type { WandbClient } from "../metrics/wandb-client.ts";
import type { NoticeRouter } from "../notify/notice-router.ts";
import type { OutboxSender } from "../outbox/outbox-sender.ts";
import type { RunManager } from "../training/run-manager.ts";
import type { RunReport } from "../training/run-report.ts";
import type { Watchdog } from "../watchdog/watchdog.ts";
import { createDigests, type Digests, type DigestsDeps } from "./digests.ts";

export interface DigestsNeeds {
  db: Db;
  runs: RunsRepo;
  digestStates: DigestStateRepo;
  outbox: OutboxRepo;
  outboxSender: OutboxSender;
  manager: RunManager;
  report: RunReport;
  channels: ChannelsRepo;
  wandb?: WandbClient;
  router: NoticeRouter;
  /** Judges each running run on every pass (its alerts carry evidence and a proposal). */
  watchdog?: Watchdog;
  log: Logger;
  now: () => number;
  redact: (text: string) => string;
  /** Replaces node-cron (tests fire the schedules by hand). */
  schedule?: DigestsDeps["schedule"];
}

export function wireDigests(config: Config, needs: DigestsNeeds): FeatureSlice<{ digests: Digests }> {
  const { db, digestStates, outboxSender, ...rest } = needs;
  const digests = createDigests({
    config,
    ...rest,
    states: digestStates,
    sender: outboxSender,
    transaction: (write) => db.transaction(write)(),
  });
  return { services: { digests }, start: () => digests.start(), stop: () => digests.stop() };
}

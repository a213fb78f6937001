// Wiring of sweeps: the board that keeps each sweep's message up to date with its runs, and the finisher that posts the
// comparison once a sweep's last run has ended (and catches up after a restart).
import type { MessageEditsRepo } from "../../db/message-edits.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import type { RunsRepo } from "../../db/runs.ts";
import type { SweepsRepo } from "../../db/sweeps.ts";
import type { FeatureSlice } from "../feature-slice.ts";
import type { Logger } from "../log.ts";
import type { EditSender } from "../outbox/edit-sender.ts";
import type { RunManager } from "../training/run-manager.ts";
import type { RunReport } from "../training/run-report.ts";
import { createSweepBoard, type SweepBoard } from "./sweep-board.ts";
import { createSweepFinisher } from "./sweep-finisher.ts";

export interface ExperimentsNeeds {
  sweeps: SweepsRepo;
  runs: RunsRepo;
  outbox: OutboxRepo;
  edits: MessageEditsRepo;
  editSender: EditSender;
  manager: Pick<RunManager, "onEvent" | "afterRecovery">;
  report: RunReport;
  log: Logger;
  now: () => number;
}

export function wireExperiments(needs: ExperimentsNeeds): FeatureSlice<{ sweepBoard: SweepBoard }> {
  const { sweeps, runs, report, manager, log, now } = needs;
  const sweepBoard = createSweepBoard({ sweeps, runs, report, edits: needs.edits, sender: needs.editSender, log, now });
  manager.onEvent((event) => sweepBoard.onEvent(event));
  const sweepFinisher = createSweepFinisher({
    sweeps,
    runs,
    report,
    outbox: needs.outbox,
    log,
    now,
    beforeComparison: (sweepId) => sweepBoard.refresh(sweepId),
  });
  manager.onEvent((event) => sweepFinisher.onEvent(event));
  manager.afterRecovery(() => sweepFinisher.catchUp());
  return {
    services: { sweepBoard },
    start: () => sweepBoard.start(),
    async stop() {
      await sweepFinisher.idle();
      await sweepBoard.stop();
    },
  };
}

// Wiring of delivery: the outbox sender (notices and digests, through the posters the platforms register) and the
// edit sender (edits owed to messages already posted).
import { createMessageEditsRepo, type MessageEditsRepo } from "../../db/message-edits.ts";
import type { Db } from "../../db/open-database.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import type { RunsRepo } from "../../db/runs.ts";
import type { FeatureSlice } from "../feature-slice.ts";
import type { Logger } from "../log.ts";
import { createEditSender, type EditSender } from "./edit-sender.ts";
import { createOutboxSender, type OutboxSender } from "./outbox-sender.ts";

export interface DeliveryNeeds {
  db: Db;
  outbox: OutboxRepo;
  runs: Pick<RunsRepo, "get">;
  log: Logger;
  now: () => number;
}

export interface WiredDelivery extends FeatureSlice<{ outboxSender: OutboxSender; editSender: EditSender }> {
  /** The edits owed to posted messages, which features queue for the edit sender. */
  edits: MessageEditsRepo;
}

export function wireDelivery(needs: DeliveryNeeds): WiredDelivery {
  const { outbox, runs, log, now } = needs;
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
  const edits = createMessageEditsRepo(needs.db);
  const editSender = createEditSender({ edits, log, now });
  return {
    services: { outboxSender, editSender },
    edits,
    start() {
      outboxSender.start();
      editSender.start();
    },
    async stop() {
      await outboxSender.stop();
      await editSender.stop();
    },
  };
}

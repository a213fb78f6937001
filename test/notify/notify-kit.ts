// Moves a run through the real transitions (with /rl notify's router) on a bot's database, so its notices are queued
// exactly as the lifecycle queues them.
import { createNotifySettingsRepo } from "../../db/notify-settings.ts";
import { createRunActionsRepo } from "../../db/run-actions.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { RunStatus } from "../../db/runs.ts";
import { createNoticeRouter } from "../../src/notify/notice-router.ts";
import type { Services } from "../../src/services.ts";
import { createTransitions } from "../../src/training/lifecycle/transitions.ts";
import { waitFor } from "../helpers/wait-for.ts";

export function runMover(services: Services) {
  const transitions = createTransitions({
    db: services.db,
    runs: services.runs,
    outbox: services.outbox,
    actions: createRunActionsRepo(services.db),
    log: services.log,
    now: services.now,
    redact: services.redact,
    stopOrderOf: () => [],
    router: createNoticeRouter(createNotifySettingsRepo(services.db)),
  });
  return {
    /** A running run of `channel`, started by `by`, whose thread is `thread`. */
    start(id: string, channel: ChannelKey, by: string, thread?: string): void {
      services.runs.insert({ id, channel, thread, environment: "foo", config: {}, status: "running", createdBy: by });
    },
    /** The run ends as `status`, with the notice the lifecycle owes. */
    end(id: string, status: Extract<RunStatus, "completed" | "failed">): void {
      transitions.move(id, ["running"], { status }, { notice: { kind: status, message: `Run ${id} ${status}.` } });
    },
  };
}

/** Polls until `check` holds (deliveries happen on the outbox's own passes too). */
export async function until(check: () => boolean, what: string): Promise<void> {
  await waitFor(check, what, { everyMs: 20 });
}

// Which notices of a sweep's runs are folded into the sweep's living message rather than posted on their own.
import type { RunEvent } from "../run-events.ts";

/** Said by the sweep's message as it is edited; failures (and the comparison) still post in the sweep's thread. */
const FOLDED: ReadonlySet<RunEvent["kind"]> = new Set(["queued", "started", "resumed", "completed", "stopped"]);

/**
 * True for a sweep run's routine notice on a platform whose messages are edited (Slack, Discord). The console has no
 * message to edit: there every notice still prints.
 */
export function foldsIntoSweep(event: Pick<RunEvent, "kind" | "run">): boolean {
  return event.run.sweepId !== undefined && event.run.channel.platform !== "console" && FOLDED.has(event.kind);
}

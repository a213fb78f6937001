// The starts in progress on this machine: each can be aborted (a stop, a component's exit) and awaited until it gives up.
import { RlError } from "../../../errors.ts";

export type Launches = Map<string, { abort: AbortController; done: Promise<void> }>;

/** Abort a start in progress and wait until it has given up (so nothing is spawned after a stop). */
export async function abortLaunch(launching: Launches, runId: string, reason: string): Promise<void> {
  const l = launching.get(runId);
  if (!l) return;
  l.abort.abort(new RlError("PROCESS_FAILED", reason));
  await l.done;
}

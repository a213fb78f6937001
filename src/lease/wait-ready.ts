// A client of a data folder's owner that is still starting (its pid file says "starting": it settles its runs before
// its socket takes commands) waits for it, bounded, instead of failing to connect.
import { RlError } from "../errors.ts";
import { isReady, readLeaseHolder, type LeaseHolder } from "./lease-holder.ts";
import { isSameProcess } from "../process/process-info.ts";

/**
 * The holder once its socket accepts commands; undefined when its process ended (or another took the folder)
 * meanwhile; TIMEOUT (details.starting) when it is still starting after `ms`.
 */
export async function waitUntilReady(
  dataDir: string,
  holder: LeaseHolder,
  ms: number,
): Promise<LeaseHolder | undefined> {
  const deadline = Date.now() + ms;
  for (let current: LeaseHolder | undefined = holder; ; current = readLeaseHolder(dataDir)) {
    if (!current || current.pid !== holder.pid || !isSameProcess(holder.pid, holder.startTime)) return undefined;
    if (isReady(current)) return current;
    if (Date.now() >= deadline)
      throw new RlError("TIMEOUT", `pid ${holder.pid} is still starting after ${ms / 1000} s.`, {
        details: { pid: holder.pid, starting: true },
      });
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The lease for a bot started by a person: taken from the background supervisor when it holds the folder, else as before.
import { RlError } from "../errors.ts";
import { acquireLease, tryAcquireLease, type Lease } from "./acquire-lease.ts";
import { readLeaseHolder, type LeaseHolder } from "./lease-holder.ts";
import { stopHolder } from "./stop-holder.ts";

export interface TakeOver {
  lease: Lease;
  /** The background supervisor that held the folder and was asked to stop. */
  from?: LeaseHolder;
}

/**
 * The background supervisor runs no chat platform: a bot with platforms (or a console) is what a person means to run,
 * so it asks the supervisor to stop in order (its runs carry on and are re-attached here), waits for it to let go of
 * the folder, and takes the lease. Another person's bot is refused as always. A supervisor an exec started again
 * meanwhile is asked too, until `waitMs` has passed.
 */
export async function acquireLeaseTakingOver(dataDir: string, waitMs: number): Promise<TakeOver> {
  const deadline = Date.now() + waitMs;
  let from: LeaseHolder | undefined;
  for (;;) {
    const attempt = tryAcquireLease(dataDir, "bot");
    if ("lease" in attempt) return { lease: attempt.lease, from };
    // The winner writes its pid file just after winning the lock: a moment for it to say who it is.
    let holder = attempt.holder;
    for (let i = 0; !holder && i < 20; i++) {
      await new Promise((r) => setTimeout(r, 50));
      holder = readLeaseHolder(dataDir);
    }
    if (holder?.mode !== "background") return { lease: acquireLease(dataDir, "bot") };
    from = holder;
    const left = deadline - Date.now();
    if (left <= 0)
      throw new RlError(
        "CONFLICT",
        `The background supervisor (pid ${holder.pid}) did not let go of the data folder ${dataDir} within ${waitMs / 1000} s. Stop it (kill ${holder.pid}) and start again.`,
        { details: { pid: holder.pid } },
      );
    await stopHolder(dataDir, holder, { ackTimeoutMs: 10_000, exitWaitMs: left, signalIfSilent: true }).catch(
      () => undefined,
    );
  }
}

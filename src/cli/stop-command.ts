// rl-chatops stop: ends whichever process owns the data folder (a bot, or the background supervisor) in order.
import type { Config } from "../config.ts";
import { isRlError, RlError } from "../errors.ts";
import { readLeaseHolder, type LeaseHolder } from "../lease/lease-holder.ts";
import { stateOf, stopHolder } from "../lease/stop-holder.ts";
import { botSilent } from "./ask-supervisor.ts";

const nameOf = (holder: LeaseHolder) =>
  `${holder.mode === "background" ? "the background supervisor" : "the bot"} (pid ${holder.pid}, started ${holder.startedAt})`;

/** Asks the owner over its socket and waits for it to exit; what it did, on stdout; exit 0, or 1 with why not. */
export async function runStop(config: Config, ackTimeoutMs: number): Promise<number> {
  const holder = readLeaseHolder(config.dataDir);
  if (!holder || stateOf(holder) === "gone") {
    process.stdout.write(`Nothing to stop: no rl-chatops owns the data folder ${config.dataDir}.\n`);
    return 0;
  }
  const exitWaitMs = config.stopGraceMs + 60_000;
  try {
    await stopHolder(config.dataDir, holder, { ackTimeoutMs, exitWaitMs });
  } catch (err) {
    if (isRlError(err) && err.code === "TIMEOUT" && err.details.pid === undefined)
      throw botSilent(config, holder, err, ackTimeoutMs);
    if (isRlError(err) && err.code === "TIMEOUT")
      throw new RlError(
        "TIMEOUT",
        `Asked ${nameOf(holder)} to stop, but it is still running after ${exitWaitMs / 1000} s; see its log in ${config.logsDir}, or end it (kill ${holder.pid}).`,
        { cause: err },
      );
    throw err;
  }
  process.stdout.write(
    `Stopped ${nameOf(holder)}, which owned the data folder ${config.dataDir}, in order; its runs carry on, and the next bot or exec re-attaches to them.\n`,
  );
  return 0;
}

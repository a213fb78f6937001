// Asks the process holding a data folder to shut down in order, over its socket, and waits until it has gone.
import { RlError } from "../errors.ts";
import { isSameProcess, isStoppedProcess } from "../process/process-info.ts";
import { askBot, type BotState } from "./ask-bot.ts";
import type { LeaseHolder } from "./lease-holder.ts";
import { socketPathFor } from "./socket-path.ts";
import { waitUntilReady } from "./wait-ready.ts";

export interface StopHolderOptions {
  /** How long it has to take the request (as exec's --timeout). */
  ackTimeoutMs: number;
  /** How long it may then take to finish its work and exit. */
  exitWaitMs: number;
  /** When it does not take the request (still starting, or its socket gone), send SIGTERM: the same stop in order. */
  signalIfSilent?: boolean;
}

export const stateOf = (holder: LeaseHolder): BotState => {
  if (!isSameProcess(holder.pid, holder.startTime)) return "gone";
  return isStoppedProcess(holder.pid) ? "stopped" : "running";
};

/** Resolves once the holder's process has ended; rejects (TIMEOUT) when it is still there after `ms`. */
export async function waitUntilGone(holder: LeaseHolder, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (stateOf(holder) !== "gone") {
    if (Date.now() >= deadline)
      throw new RlError("TIMEOUT", `pid ${holder.pid} was asked to stop but is still running after ${ms / 1000} s.`, {
        details: { pid: holder.pid },
      });
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Asks `holder` to stop, then waits for its process to end. Rejects with askBot's error when it does not take the
 * request (unless `signalIfSilent`), and with TIMEOUT when it has not ended within `exitWaitMs`.
 */
export async function stopHolder(dataDir: string, holder: LeaseHolder, options: StopHolderOptions): Promise<void> {
  if (stateOf(holder) === "gone") return;
  try {
    // One still starting takes no request yet: it is waited for (or signalled), as one that does not answer.
    if (await waitUntilReady(dataDir, holder, options.ackTimeoutMs))
      await askBot(
        holder.socket ?? socketPathFor(dataDir),
        { control: "stop" },
        { connectWaitMs: 5000, ackTimeoutMs: options.ackTimeoutMs, botState: () => stateOf(holder) },
      );
  } catch (err) {
    if (stateOf(holder) === "gone") return;
    if (!options.signalIfSilent) throw err;
    process.kill(holder.pid, "SIGTERM");
  }
  await waitUntilGone(holder, options.exitWaitMs);
}

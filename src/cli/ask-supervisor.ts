// exec as a client: its command goes to the process that owns the data folder, the bot or a background supervisor,
// which is started for it when none runs. The client loads none of the services, and the settings only when it has to
// (to start a supervisor, or to say what went wrong).
import type { Config } from "../config.ts";
import { isRlError, RlError } from "../errors.ts";
import { askBot, type AgentRequest, type BotRequest, type BotResponse } from "../lease/ask-bot.ts";
import { describeHolder, readLeaseHolder, type LeaseHolder } from "../lease/lease-holder.ts";
import { newRequestId } from "../lease/request-id.ts";
import { socketPathFor } from "../lease/socket-path.ts";
import { stateOf, waitUntilGone } from "../lease/stop-holder.ts";
import { waitUntilReady } from "../lease/wait-ready.ts";
import type * as StartSupervisorModule from "./start-supervisor.ts";

/** How long exec keeps starting a supervisor that loses the folder to one nobody can then be found for. */
const FIND_OWNER_MS = 30_000;

/** How long a connection closed without an answer may precede its owner's end (the kernel closes files first). */
const DYING_MS = 2000;

/** Whether the holder's process ends within `ms` (an owner SIGKILLed mid-command: its request goes to the next). */
async function goneWithin(holder: LeaseHolder, ms: number): Promise<boolean> {
  try {
    await waitUntilGone(holder, ms);
    return true;
  } catch {
    return false;
  }
}

/** Exec gives up on a bot that does not take its command, or stays stopped while working on it: what to do. */
export function botSilent(config: Config, holder: LeaseHolder, err: RlError, ackTimeoutMs: number): RlError {
  const pid = String(holder.pid);
  const waited = `${ackTimeoutMs / 1000} s (--timeout)`;
  const who = holder.mode === "background" ? "The background supervisor" : "The bot";
  if (err.details.starting)
    return new RlError(
      "TIMEOUT",
      `${who} (pid ${pid}) that owns the data folder ${config.dataDir} is still starting after ${waited}: it settles ` +
        `the runs it found before it takes commands. Run the command again in a moment, or see its log in ${config.logsDir}.`,
      { cause: err, details: { ...err.details, pid: holder.pid } },
    );
  const what = err.details.acknowledged
    ? `took the command but has been stopped for ${waited}`
    : `did not take the command within ${waited}`;
  const fix = err.details.stopped
    ? `It is stopped: resume it with kill -CONT ${pid}, or end it (kill ${pid}, then kill -CONT ${pid}).`
    : `It may be hung: see its log in ${config.logsDir}, or restart it (kill ${pid}).`;
  return new RlError("TIMEOUT", `${who} (pid ${pid}) that owns the data folder ${config.dataDir} ${what}. ${fix}`, {
    cause: err,
    details: { ...err.details, pid: holder.pid },
  });
}

/** The live owner of the data folder, if any (a pid file left by a killed one is not). */
function liveHolder(dataDir: string): LeaseHolder | undefined {
  const holder = readLeaseHolder(dataDir);
  return holder && stateOf(holder) !== "gone" ? holder : undefined;
}

/** Starts the background supervisor: loaded only when no owner runs (asking one needs no child_process). */
export type SupervisorStarter = Pick<typeof StartSupervisorModule, "startSupervisor" | "supervisorLogOf">;

/**
 * Where exec finds the owner: the data folder, the full settings (loaded once when first needed), and the supervisor's
 * starter (loaded by the command, which has it in a chunk of its own).
 */
export interface OwnerSearch {
  dataDir: string;
  settings: () => Promise<Config>;
  starter: () => Promise<SupervisorStarter>;
}

/** Asks the owner whose socket listens; undefined when it went away or was shutting down meanwhile. */
async function askReadyOwner(
  search: OwnerSearch,
  holder: LeaseHolder,
  request: BotRequest | AgentRequest,
  ackTimeoutMs: number,
): Promise<BotResponse | undefined> {
  const socketPath = holder.socket ?? socketPathFor(search.dataDir);
  let response: BotResponse;
  try {
    response = await askBot(socketPath, request, {
      connectWaitMs: 5000,
      ackTimeoutMs,
      botState: () => stateOf(holder),
    });
  } catch (err) {
    if (isRlError(err) && err.code === "TIMEOUT") {
      if (stateOf(holder) === "gone") return undefined;
      throw botSilent(await search.settings(), holder, err, ackTimeoutMs);
    }
    // A dying owner's connection closes as the kernel closes its files, a moment before the process is gone.
    if (await goneWithin(holder, DYING_MS)) return undefined;
    throw new RlError(
      "UPSTREAM",
      `${describeHolder(holder)} owns the data folder ${search.dataDir} but does not answer on ${socketPath}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  if (!response.shuttingDown) return response;
  // It stops in order (finishing its commands in flight) and lets go of the folder; then another owner answers.
  await waitUntilGone(holder, (await search.settings()).stopGraceMs + 60_000);
  return undefined;
}

/**
 * Asks the owner once its socket takes commands (its pid file is written as it takes the folder, and says "starting"
 * until then); undefined when it went away meanwhile (the next owner is asked then).
 */
async function askOwner(
  search: OwnerSearch,
  found: LeaseHolder,
  request: BotRequest | AgentRequest,
  ackTimeoutMs: number,
): Promise<BotResponse | undefined> {
  let holder: LeaseHolder | undefined;
  try {
    holder = await waitUntilReady(search.dataDir, found, ackTimeoutMs);
  } catch (err) {
    if (!isRlError(err)) throw err;
    throw botSilent(await search.settings(), found, err, ackTimeoutMs);
  }
  return holder && askReadyOwner(search, holder, request, ackTimeoutMs);
}

/**
 * Runs `request` by the owner of the data folder. With none, a background supervisor is started; of several execs
 * racing to start one, one wins the folder and the others' supervisors find it taken and exit, and every exec is
 * answered by the winner.
 */
export async function askSupervisor(
  search: OwnerSearch,
  asked: BotRequest | AgentRequest,
  ackTimeoutMs: number,
): Promise<BotResponse> {
  // One id for every owner it is sent to: one that finds it taken by an owner that died answers, and runs nothing.
  const request = { ...asked, id: asked.id ?? newRequestId() };
  let lostSince: number | undefined;
  for (;;) {
    const holder = liveHolder(search.dataDir);
    if (holder) {
      lostSince = undefined;
      const response = await askOwner(search, holder, request, ackTimeoutMs);
      if (response) return response;
      continue;
    }
    const config = await search.settings();
    const { startSupervisor, supervisorLogOf } = await search.starter();
    const report = await startSupervisor(config);
    if ("error" in report) throw new RlError("UPSTREAM", report.error);
    if ("lost" in report) {
      // Another process holds the folder: it is about to write its pid file, or is not rl-chatops's.
      lostSince ??= Date.now();
      if (Date.now() - lostSince > FIND_OWNER_MS)
        throw new RlError(
          "CONFLICT",
          `Another process holds the lock of the data folder ${config.dataDir} (bot.lock) but says nothing in bot.pid; see ${supervisorLogOf(config)}.`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

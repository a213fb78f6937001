// `rl-chatops exec "<command>"` as a client: the command goes to the owner of the data folder and its answer is
// printed. In dist/ a program of its own (bin/build.js, STANDALONE): one file with the socket client and the printer,
// loaded on its own by cli.ts, so a scripted exec reads one file for its client instead of a dozen chunks.
import type { Config } from "../config.ts";
import { exitCodeOf, type BotRequest } from "../lease/ask-bot.ts";
import { askSupervisor, type SupervisorStarter } from "./ask-supervisor.ts";
import { readClientDataDir } from "./client-data-dir.ts";

/** What the command loads from its own chunks, only when needed (neither is needed to ask a running owner). */
export interface ExecLoaders {
  /** The full settings, the data folder checked: when it cannot be read without them, no owner runs, or to describe a wait. */
  settings: () => Promise<Config>;
  /** The background supervisor's starter, when no owner runs. */
  starter: () => Promise<SupervisorStarter>;
}

/** Runs `request` by the owner and prints its answer; the exit code says how it went. */
export async function runExec(request: BotRequest, ackTimeoutMs: number, loaders: ExecLoaders): Promise<number> {
  let loaded: Promise<Config> | undefined;
  const settings = () => (loaded ??= loaders.settings());
  const dataDir = readClientDataDir() ?? (await settings()).dataDir;
  // Only a client: a signal ends this process, never the command it handed over or a run.
  const answer = askSupervisor({ dataDir, settings, starter: loaders.starter }, request, ackTimeoutMs);
  // A person at a terminal hears what a slow command waits for; a script's stderr stays empty when all went well.
  let response;
  if (process.stderr.isTTY) {
    const { announceWait, describeWait } = await import("./announce-wait.ts");
    const describe = async () => describeWait(request.text, await settings());
    response = await announceWait(answer, describe, (t) => process.stderr.write(t));
  } else response = await answer;
  (response.ok || request.json ? process.stdout : process.stderr).write(`${response.rendered}\n`);
  return exitCodeOf(response);
}

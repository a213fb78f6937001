// `rl-chatops exec "<command>"` as a client: the command goes to the owner of the data folder and its answer is
// printed. In dist/ a CommonJS program of its own (bin/build.mjs, COMMONJS), dist/exec-command.cjs: one file with the
// socket client and the printer, which bin/rl-chatops.js runs for `exec` without loading Node's ES module loader or
// the command's chunks (cli.ts loads it too, for an exec it is handed).
import type { Config } from "../config.ts";
import { exitCodeOf, type BotRequest } from "../lease/ask-bot.ts";
import { commandTooLong, MAX_COMMAND_LENGTH } from "../values/input-limits.ts";
import { ackTimeoutOf } from "./ack-timeout.ts";
import { askSupervisor } from "./ask-supervisor.ts";
import { readClientDataDir } from "./client-data-dir.ts";
import { runCommandMain } from "./command-main.ts";
import type * as ExecLoadersModule from "./exec-loaders.ts";
import { UsageError, type CommandLine } from "./parse-command-line.ts";

/** Runs `request` by the owner and prints its answer; the exit code says how it went. */
export async function runExec(
  request: BotRequest,
  ackTimeoutMs: number,
  loaders: ExecLoadersModule.ExecLoaders,
): Promise<number> {
  // Refused here, before any owner is looked for or started: the same words the bot would say.
  const tooLong = commandTooLong(request.text);
  if (tooLong) {
    const error = {
      code: "USAGE",
      message: tooLong,
      details: { length: request.text.length, limit: MAX_COMMAND_LENGTH },
    };
    (request.json ? process.stdout : process.stderr).write(`${request.json ? JSON.stringify({ error }) : tooLong}\n`);
    return exitCodeOf({ ok: false, code: "USAGE" });
  }
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

/** `rl-chatops exec "<command>" [options]`: the request its command line makes, run by runExec. */
export function runExecLine(line: CommandLine, loaders: ExecLoadersModule.ExecLoaders): Promise<number> {
  const text = line.args[0];
  if (!text) throw new UsageError('exec needs the command text, e.g. rl-chatops exec "/rl envs".');
  const ackTimeoutMs = ackTimeoutOf(line);
  const request: BotRequest = {
    text,
    channel: line.options.channel,
    // Asked for, not asserted: the bot acts as the machine's user running this unless its settings let it name another.
    ...(line.options.user !== undefined ? { user: line.options.user } : {}),
    json: line.options.json === true,
    // A script retrying a command gives the same id each time: the command runs once.
    ...(line.options["request-id"] !== undefined ? { id: line.options["request-id"] } : {}),
  };
  return runExec(request, ackTimeoutMs, loaders);
}

/**
 * The loaders from the build's entry that holds them (dist/exec-loaders.js beside this file; from the sources, the
 * TypeScript file), imported by a URL made at run time, so the bundler leaves them out of this one.
 */
const LOADERS_URL = new URL(
  import.meta.url.endsWith(".ts") ? "./exec-loaders.ts" : "./exec-loaders.js",
  import.meta.url,
).href;
const importLoaders = async () => ((await import(LOADERS_URL)) as typeof ExecLoadersModule).execLoaders;

/** The program bin/rl-chatops.js runs for `rl-chatops exec ...`: `argv` is the command line after `rl-chatops`. */
export function main(argv: string[]): void {
  const loaders: ExecLoadersModule.ExecLoaders = {
    settings: async () => (await importLoaders()).settings(),
    starter: async () => (await importLoaders()).starter(),
  };
  runCommandMain(argv, {
    run: (line) => runExecLine(line, loaders),
    settingNames: async () => (await importLoaders()).settingNames(),
  });
}

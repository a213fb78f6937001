// The rl-chatops command line: run the bot, run one command (exec) by the bot or the background supervisor, stop
// either, print kept notices, or show what discovery finds (scan).
import { constants } from "node:os";
import path from "node:path";
import type { Config } from "./config.ts";
import { isRlError, RlError } from "./errors.ts";
import type { BotRequest } from "./lease/ask-bot.ts";
import type { Bot, BotDeps } from "./main.ts";
import type * as ScanCommandModule from "./scan-command.ts";
import type * as ExecCommandModule from "./cli/exec-command.ts";
import { parseCommandLine, UsageError, type CommandLine } from "./cli/parse-command-line.ts";

type ScanCommand = typeof ScanCommandModule;
type ExecCommand = typeof ExecCommandModule;

// Each command imports what it uses when it runs (a chunk of its own in dist/): `--help` loads nothing, `exec` and
// `scan` no chat platform, and no command pays for another's modules.

/**
 * `scan` and `exec` are programs of their own in dist/, one file each with everything it uses (bin/build.js,
 * STANDALONE): a one-shot command spends much of its time loading modules, and a dozen shared chunks, with the code the
 * bot's other users of them need, cost it more than one file with only its own. From the sources, the TypeScript file.
 */
const standalone = (source: string, built: string) =>
  new URL(import.meta.url.endsWith(".ts") ? source : built, import.meta.url).href;
const SCAN_COMMAND = standalone("./scan-command.ts", "./scan-command.js");
const EXEC_COMMAND = standalone("./cli/exec-command.ts", "./exec-command.js");

const USAGE = `Usage:
  rl-chatops [--console]                        run the bot (the terminal console when no platform token is set)
  rl-chatops exec "<command>" [--channel ID] [--user ID] [--json] [--timeout SECONDS]
                                                run one /rl command by the bot that owns the data folder (with none,
                                                a background supervisor is started for it); give up when the owner
                                                does not take it within SECONDS, default 30
  rl-chatops stop [--timeout SECONDS]           stop the bot or background supervisor that owns the data folder, in order
  rl-chatops notices [--follow]                 print the notices kept for console channels (--follow: and new ones)
  rl-chatops supervise                          the background supervisor itself (exec starts it; no chat platform)
  rl-chatops scan DIR [--json]                  show the environments discovery finds in DIR
  rl-chatops backup [FILE]                      a consistent copy of the database (default: data/backups/), safe while the bot runs`;

/** The bot stopped because its database file was deleted or replaced while it ran (README, Reliability). */
const DATABASE_GONE_EXIT = 3;

/**
 * SIGINT/SIGTERM: the first shuts down in order (`onFirst`), a second quits at once with 128 + the signal's number
 * (130 for SIGINT, 143 for SIGTERM), as a shell reports a process the signal killed.
 */
function onShutdownSignals(onFirst: () => void): void {
  let seen = false;
  const handle = (signal: NodeJS.Signals) => {
    if (seen) process.exit(128 + constants.signals[signal]);
    seen = true;
    process.stderr.write(
      `rl-chatops: ${signal}: finishing the work in flight, then stopping (send it again to quit at once).\n`,
    );
    onFirst();
  };
  process.on("SIGINT", handle);
  process.on("SIGTERM", handle);
}

/** --timeout SECONDS: how long the owner of the data folder has to take the command (default 30). */
function ackTimeoutOf(line: CommandLine): number {
  const value = line.options.timeout;
  if (value === undefined) return 30_000;
  const seconds = /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!(seconds > 0))
    throw new UsageError(
      `--timeout takes a number of seconds above 0, e.g. rl-chatops ${line.verb} ${line.verb === "exec" ? '"/rl status" ' : ""}--timeout 10.`,
    );
  return seconds * 1000;
}

/** The settings of a command that uses the data folder, which is checked before anything in it is opened or created. */
async function loadDataConfig(): Promise<Config> {
  const [{ loadConfig }, { checkDataDir }] = await Promise.all([
    import("./config.ts"),
    import("./lease/check-data-dir.ts"),
  ]);
  const config = loadConfig();
  checkDataDir(config.dataDir);
  return config;
}

async function exec(line: CommandLine): Promise<number> {
  const text = line.args[0];
  if (!text) throw new UsageError('exec needs the command text, e.g. rl-chatops exec "/rl envs".');
  const ackTimeoutMs = ackTimeoutOf(line);
  const { runExec } = (await import(EXEC_COMMAND)) as ExecCommand;
  const request: BotRequest = {
    text,
    channel: line.options.channel,
    user: line.options.user ?? process.env.USER ?? "local",
    json: line.options.json === true,
  };
  return runExec(request, ackTimeoutMs, {
    settings: loadDataConfig,
    starter: () => import("./cli/start-supervisor.ts"),
  });
}

async function stop(line: CommandLine): Promise<number> {
  const ackTimeoutMs = ackTimeoutOf(line);
  const [config, { runStop }] = await Promise.all([loadDataConfig(), import("./cli/stop-command.ts")]);
  return runStop(config, ackTimeoutMs);
}

async function notices(line: CommandLine): Promise<number> {
  const [config, { runNotices }] = await Promise.all([loadDataConfig(), import("./cli/notices-command.ts")]);
  return runNotices(config, line.options.follow === true);
}

/**
 * The bot, or the background supervisor exec starts (`supervise`, which reports its start on the pipe exec gave it
 * and exits quietly when a racing one won the folder).
 */
async function runBot(line: CommandLine): Promise<number> {
  const background = line.verb === "supervise";
  const { reporterTo } = background ? await import("./cli/start-supervisor.ts") : { reporterTo: undefined };
  const report = reporterTo?.(line.options["report-fd"]);
  // Handlers go in before the bot starts serving: a signal during start-up still shuts down in order.
  const running: { bot?: Bot; signalled?: boolean } = {};
  onShutdownSignals(() => {
    running.signalled = true;
    void running.bot?.stop();
  });
  let bot: Bot;
  try {
    const [config, { createBot }] = await Promise.all([loadDataConfig(), import("./main.ts")]);
    const deps: BotDeps = background ? { background } : { console: line.options.console === true };
    bot = running.bot = await createBot(config, deps);
  } catch (err) {
    if (background && isRlError(err) && err.details.leaseTaken === true) {
      report?.({ lost: true });
      return 0;
    }
    report?.({ error: err instanceof Error ? err.message : String(err) });
    throw err;
  }
  report?.({ serving: true });
  if (running.signalled) void bot.stop();
  await bot.done;
  if (bot.fault) {
    process.stderr.write(`${bot.fault.message}\n`);
    return DATABASE_GONE_EXIT;
  }
  return 0;
}

async function scan(line: CommandLine): Promise<number> {
  const dir = line.args[0];
  if (!dir) throw new UsageError("scan needs a folder, e.g. rl-chatops scan ./environments.");
  const { runScan } = (await import(SCAN_COMMAND)) as ScanCommand;
  return runScan(dir, { json: line.options.json === true });
}

async function backup(line: CommandLine): Promise<number> {
  const [{ existsSync }, config, { openDatabase }, { backupDatabase }] = await Promise.all([
    import("node:fs"),
    loadDataConfig(),
    import("../db/open-database.ts"),
    import("../db/backup-database.ts"),
  ]);
  // A backup never creates the database it copies.
  if (!existsSync(config.databasePath))
    throw new RlError("NOT_FOUND", `There is no database at ${config.databasePath} yet: nothing to back up.`);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = line.args[0] ?? path.join(config.backupsDir, `rl-chatops-${stamp}.db`);
  const db = openDatabase(config.databasePath);
  try {
    const written = await backupDatabase(db, file);
    process.stdout.write(`Backed up ${config.databasePath} to ${written}\n`);
  } finally {
    db.close();
  }
  return 0;
}

/**
 * A reader that stops early (`rl-chatops scan DIR | head`) closes the pipe: what is left of a one-shot command's
 * output has nowhere to go, which is no failure of the command. It ends with its own exit code, quietly.
 */
function endQuietlyOnClosedPipe(): void {
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
    process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  });
}

async function main(argv: string[]): Promise<number> {
  const line = parseCommandLine(argv);
  if (line.verb !== "run" || line.options.help) endQuietlyOnClosedPipe();
  if (line.options.help || line.verb === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { loadDotEnv } = await import("./cli/load-dot-env.ts");
  for (const warning of await loadDotEnv(process.cwd())) process.stderr.write(`rl-chatops: ${warning}\n`);
  if (line.verb === "exec") return exec(line);
  if (line.verb === "scan") return scan(line);
  if (line.verb === "backup") return backup(line);
  if (line.verb === "stop") return stop(line);
  if (line.verb === "notices") return notices(line);
  return runBot(line);
}

// A stray rejection from a platform SDK is logged, not fatal: the bot keeps serving the other platforms.
process.on("unhandledRejection", (reason) => {
  process.stderr.write(`unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}\n`);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (isRlError(err)) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`rl-chatops failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    }
  },
);

// The rl-chatops command line: run the bot, run one command (exec) by the bot or the background supervisor, stop
// either, print kept notices, or show what discovery finds (scan).
import { constants } from "node:os";
import path from "node:path";
import { isRlError, RlError } from "./errors.ts";
import type { Bot, BotDeps } from "./main.ts";
import type * as ScanCommandModule from "./scan-command.ts";
import type * as ExecCommandModule from "./cli/exec-command.ts";
import { ackTimeoutOf } from "./cli/ack-timeout.ts";
import { runCommandMain } from "./cli/command-main.ts";
import { releaseEarlySignals, takeEarlySignals } from "./cli/early-signals.ts";
import { loadDataConfig } from "./cli/load-data-config.ts";
import { loadProgram } from "./cli/load-program.ts";
import { loadSettingNames } from "./cli/setting-names.ts";
import type { CommandLine } from "./cli/parse-command-line.ts";

// Each command imports what it uses when it runs (a chunk of its own in dist/): `--help` loads nothing, `exec` and
// `scan` no chat platform, and no command pays for another's modules.

/**
 * `scan` and `exec` are programs of their own in dist/, one CommonJS file each with everything it uses (bin/build.mjs,
 * COMMONJS): a one-shot command spends much of its time loading modules, and a dozen shared chunks, with the code the
 * bot's other users of them need, cost it more than one file with only its own. bin/rl-chatops.js runs them directly
 * for a command line that starts with their verb; this command loads them for any other. From the sources, the
 * TypeScript file.
 */
const scanCommand = () =>
  loadProgram<typeof ScanCommandModule>(import.meta.url, "./scan-command.ts", "./scan-command.cjs");
const execCommand = () =>
  loadProgram<typeof ExecCommandModule>(import.meta.url, "./cli/exec-command.ts", "./exec-command.cjs");

/** The bot stopped because its database file was deleted or replaced while it ran (docs/reliability.md). */
const DATABASE_GONE_EXIT = 3;

/**
 * SIGINT/SIGTERM: the first shuts down in order (`onFirst`), a second quits at once with 128 + the signal's number
 * (130 for SIGINT, 143 for SIGTERM), as a shell reports a process the signal killed.
 */
function onShutdownSignals(onFirst: () => void): void {
  let seen = false;
  // Installed in the same tick as bin's keeper is removed: no signal falls between the two.
  const early = takeEarlySignals();
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
  for (const signal of early) handle(signal);
}

async function exec(line: CommandLine): Promise<number> {
  const [{ runExecLine }, { execLoaders }] = await Promise.all([execCommand(), import("./cli/exec-loaders.ts")]);
  return runExecLine(line, execLoaders);
}

async function mcp(line: CommandLine): Promise<number> {
  const [{ runMcp }, { execLoaders }] = await Promise.all([
    import("./cli/mcp-command.ts"),
    import("./cli/exec-loaders.ts"),
  ]);
  return runMcp(line, execLoaders);
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
    // Stopped before it began: nothing was taken or opened, so nothing is left to stop.
    if (running.signalled) {
      process.stderr.write("rl-chatops: stopped before it started; nothing was opened.\n");
      report?.({ error: "it was stopped by a signal before it started" });
      return 0;
    }
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
  return (await scanCommand()).runScanLine(line);
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

async function prune(line: CommandLine): Promise<number> {
  const [config, { runPrune }] = await Promise.all([loadDataConfig(), import("./cli/prune-command.ts")]);
  return runPrune(line, config);
}

runCommandMain(process.argv.slice(2), {
  run: async (line) => {
    // Only the bot and the supervisor handle SIGINT and SIGTERM; any other command ends by them as usual.
    if (line.verb !== "run" && line.verb !== "supervise") releaseEarlySignals();
    if (line.verb === "exec") return exec(line);
    if (line.verb === "mcp") return mcp(line);
    if (line.verb === "scan") return scan(line);
    if (line.verb === "backup") return backup(line);
    if (line.verb === "prune") return prune(line);
    if (line.verb === "stack") return (await import("./stacks/manifest/stack-check-command.ts")).runStackLine(line);
    if (line.verb === "stop") return stop(line);
    if (line.verb === "notices") return notices(line);
    return runBot(line);
  },
  settingNames: loadSettingNames,
});

// A real rl-chatops bot in a child process with its stdin held open, plus waiting for what it writes or records.
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import Database from "better-sqlite3";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { afterEach } from "vitest";
import { openDatabase } from "../../db/open-database.ts";
import { createRunProcessesRepo } from "../../db/run-processes.ts";
import { createRunsRepo, RUN_STATUSES } from "../../db/runs.ts";
import { readLeaseHolder, type LeaseHolder } from "../../src/lease/lease-holder.ts";
import { isSameProcess, signalGroup } from "../../src/process/process-info.ts";
import { loadConfig } from "../../src/config.ts";
import type { Reply } from "../../src/reply.ts";
import { demoLockedFields } from "./demo-stack.ts";
import { CLI, runCli } from "./run-cli.ts";
import { spawnTracked } from "./children.ts";
import { tempDir } from "./test-services.ts";
import { waitFor } from "./wait-for.ts";

export { waitFor };

export interface BotProcess {
  pid: number;
  stdout(): string;
  stderr(): string;
  write(line: string): void;
  /** Close its stdin (the console then ends, as at the end of piped input). */
  endInput(): void;
  kill(signal: NodeJS.Signals): void;
  /** Resolves when the process has ended (it never rejects). */
  ended: Promise<{ code: number | undefined; signal: string | undefined }>;
}

export interface SpawnOptions {
  /** Read the bot's stdout only this many bytes every 50 ms while it runs (then all of it), as a slow terminal or log
   * pipe does: its writes back up, in the pipe and then in the bot. */
  slowStdout?: number;
  /** Run it on a terminal of its own (util-linux `script`), so its console is interactive: it prompts and asks before
   * a start. `pid` is then script's; the bot's is the lease holder's. */
  terminal?: boolean;
  /** Run `rl-chatops ARGS` instead of the bot (a command that keeps running, such as notices --follow). */
  args?: string[];
}

export function spawnBot(cwd: string, env: Record<string, string> = {}, options: SpawnOptions = {}): BotProcess {
  const slow = options.slowStdout;
  const [command, args] = options.terminal
    ? ["script", ["-qfec", `exec ${process.execPath} ${CLI}`, "/dev/null"]]
    : [process.execPath, [CLI, ...(options.args ?? [])]];
  const child = spawnTracked(command, args, {
    cwd,
    env: { RL_LOG_LEVEL: "silent", ...env },
    stdin: "pipe",
    reject: false,
    buffer: slow === undefined,
  });
  let out = "";
  let err = "";
  // Decoded as streams, so a character split between two reads of the pipe is not garbled.
  const outText = new StringDecoder("utf8");
  const errText = new StringDecoder("utf8");
  const readAll = () => child.stdout.on("data", (d: Buffer) => (out += outText.write(d)));
  if (slow === undefined) readAll();
  else {
    child.stdout.pause();
    const reader = setInterval(() => {
      // read(0) only asks the pipe for more; what it brings is taken on the next tick.
      const chunk = child.stdout.read(Math.min(slow, child.stdout.readableLength)) as Buffer | null;
      if (chunk) out += outText.write(chunk);
    }, 50);
    child.once("exit", () => {
      clearInterval(reader);
      readAll();
    });
  }
  child.stderr.on("data", (d: Buffer) => (err += errText.write(d)));
  return {
    pid: child.pid!,
    stdout: () => out,
    stderr: () => err,
    write: (line) => void child.stdin.write(line),
    endInput: () => void child.stdin.end(),
    kill: (signal) => void child.kill(signal),
    ended: child.then((r) => ({ code: r.exitCode, signal: r.signal ?? undefined })),
  };
}

/** The bot with this pid holds the lease and serves its socket. */
export function waitForBot(dataDir: string, pid: number): Promise<LeaseHolder> {
  return waitFor(() => {
    const holder = readLeaseHolder(dataDir);
    return holder?.pid === pid && holder.socket && existsSync(holder.socket) ? holder : undefined;
  }, `bot ${pid} to serve ${dataDir}`);
}

/** SIGKILLs every bot in `bots` that a test left running, waits for each to end, and empties the list. */
export async function killBots(bots: BotProcess[]): Promise<void> {
  for (const bot of bots.splice(0)) {
    bot.kill("SIGKILL");
    await bot.ended;
  }
}

/** Kill the process groups of every run recorded in the data folder (runs a killed bot left behind). */
export function killRunProcesses(dataDir: string): void {
  const db = openDatabase(path.join(dataDir, "rl-chatops.db"));
  try {
    const processes = createRunProcessesRepo(db);
    for (const run of createRunsRepo(db).listByStatus(RUN_STATUSES)) {
      for (const p of processes.list(run.id))
        if (p.pid && isSameProcess(p.pid, p.startTime)) signalGroup(p.pid, "SIGKILL");
    }
  } finally {
    db.close();
  }
}

/** What a test file's tests spawn and run, cleaned up after each test (see botsPerTest). */
export interface BotsPerTest {
  /** Bots SIGKILLed after the test. */
  started: BotProcess[];
  /** Data folders whose run processes are killed after the test (runs a killed bot or supervisor left behind). */
  dataDirs: string[];
  /** Spawns a bot in `cwd`, killed after the test, and waits until it serves `cwd`/data. */
  startBot(cwd: string, env?: Record<string, string>): Promise<BotProcess>;
  /**
   * A fresh folder on the demo stack whose data folder's runs are killed after the test; `env` runs the demo 200 steps
   * of 0.5 s (long enough to be stopped, not to end), logs warnings, and adds `settings`.
   */
  demoFolder(settings?: Record<string, string>): Promise<{ cwd: string; dataDir: string; env: Record<string, string> }>;
}

/** Call at a test file's top level: the bots and data folders its tests use are cleaned up after each test. */
export function botsPerTest(): BotsPerTest {
  const started: BotProcess[] = [];
  const dataDirs: string[] = [];
  afterEach(async () => {
    await killBots(started);
    for (const dir of dataDirs.splice(0)) killRunProcesses(dir);
  });
  return {
    started,
    dataDirs,
    async startBot(cwd, env = {}) {
      const bot = spawnBot(cwd, env);
      started.push(bot);
      await waitForBot(path.join(cwd, "data"), bot.pid);
      return bot;
    },
    async demoFolder(settings = {}) {
      const cwd = tempDir();
      const dataDir = path.join(cwd, "data");
      dataDirs.push(dataDir);
      const env = {
        RL_LOG_LEVEL: "warn",
        RL_LOCKED_FIELDS: await demoLockedFields(cwd, { totalSteps: 200, stepSeconds: 0.5 }),
        ...settings,
      };
      return { cwd, dataDir, env };
    },
  };
}

/**
 * Call at a test file's top level: the folders its tests exec in, whose background supervisor is stopped after each
 * test (rl-chatops stop) and whose runs' processes left behind are killed.
 */
export function supervisedFoldersPerTest(): string[] {
  const folders: string[] = [];
  afterEach(async () => {
    for (const cwd of folders.splice(0)) {
      await runCli(["stop"], { cwd });
      try {
        killRunProcesses(path.join(cwd, "data"));
      } catch {
        // No database was made.
      }
    }
  });
  return folders;
}

/**
 * Waits until the bot's start waits on a demo trainer given `demo_fault: no_health` or `hung`, which has reached its
 * fault (its log says so); the run's id.
 */
export async function waitForStuckTrainer(dataDir: string, b: BotProcess): Promise<string> {
  await waitFor(() => b.stdout().includes("api is ready"), "the api to be ready");
  const logs = path.join(dataDir, "logs");
  return waitFor(() => {
    const file = readdirSync(logs).find((f) => /^trainer_\w+\.log$/.test(f));
    return file && readFileSync(path.join(logs, file), "utf8").includes("the inference server never starts")
      ? file.slice("trainer_".length, -".log".length)
      : undefined;
  }, "the trainer to reach its fault");
}

/** Pids of the processes in group `pgid` that are alive (a zombie, killed but not yet reaped by init, is not). */
function liveInGroup(pgid: number): number[] {
  const live: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // After the command's closing parenthesis: state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") live.push(Number(entry));
  }
  return live;
}

/** The run processes recorded in the data folder that are still alive: the process itself, or anything in its group. */
export function runProcessesLeft(dataDir: string): string[] {
  const db = openDatabase(path.join(dataDir, "rl-chatops.db"));
  try {
    const processes = createRunProcessesRepo(db);
    return createRunsRepo(db)
      .listByStatus(RUN_STATUSES)
      .flatMap((run) => processes.list(run.id))
      .filter((p) => p.pid && (isSameProcess(p.pid, p.startTime) || liveInGroup(p.pid).length > 0))
      .map((p) => `${p.component} of ${p.runId} (pid ${p.pid}; alive in its group: ${liveInGroup(p.pid!).join(", ")})`);
  } finally {
    db.close();
  }
}

/** The bot's exit, or a failure showing its output when it has not exited within `ms` of being asked to (`why`). */
export async function endWithin(b: BotProcess, ms: number, why: string): Promise<{ code: number | undefined }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const tail = `stdout:\n${b.stdout().slice(-2000)}\nstderr:\n${b.stderr().slice(-2000)}`;
      reject(new Error(`the bot did not exit within ${ms / 1000} s of ${why}.\n${tail}`));
    }, ms);
  });
  try {
    return await Promise.race([b.ended, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Read the bot's database from outside while it runs (WAL allows it); undefined while the file does not exist yet. */
export function readDb<T>(cwd: string, env: Record<string, string>, read: (db: Database.Database) => T): T | undefined {
  const file = loadConfig(env, cwd).databasePath;
  if (!existsSync(file)) return undefined;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** Pids of the background supervisors working in `cwd` (the exec's or mcp's folder, which they inherit). */
export function supervisorsIn(cwd: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (argv.includes("supervise") && readlinkSync(`/proc/${entry}/cwd`) === cwd) pids.push(Number(entry));
    } catch {
      // It ended while we looked.
    }
  }
  return pids;
}

/** The Duration a run's completed notice says, once the bot has queued it (read from the outbox of `cwd`/data). */
export function completedDuration(
  cwd: string,
  env: Record<string, string>,
  runId: string,
): Promise<string | undefined> {
  return waitFor(
    () =>
      readDb(
        cwd,
        env,
        (db) =>
          db.prepare("SELECT reply_json FROM outbox WHERE run_id = ? AND dedupe_key LIKE '%:completed'").get(runId) as
            { reply_json: string } | undefined,
      ),
    "the completed notice",
  ).then((row) => (JSON.parse(row.reply_json) as Reply).fields?.find((f) => f.label === "Duration")?.value);
}

// The real bot as a child process on a data folder, its console driven through stdin, its database read alongside.
import { spawn, type ChildProcess } from "node:child_process";
import Database from "better-sqlite3";
import { loadConfig } from "../../src/config.ts";
import { delay } from "../../src/training/wait-until.ts";
import { CLI } from "../helpers/run-cli.ts";

export interface BotProcess {
  child: ChildProcess;
  output: () => string;
  send(line: string): void;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startBotProcess(cwd: string, env: Record<string, string>): BotProcess {
  const child = spawn(process.execPath, [CLI], { cwd, env: { ...process.env, RL_LOG_LEVEL: "silent", ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  return { child, output: () => out, send: (line) => child.stdin!.write(`${line}\n`), exited };
}

export async function until<T>(check: () => T | undefined | false, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let value: T | undefined | false;
    try {
      value = check();
    } catch {
      // The database may not exist yet while the bot starts.
      value = undefined;
    }
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await delay(100);
  }
}

/** Reads the bot's database from outside, as the bot writes it (WAL lets both at once). */
export function readDb<T>(cwd: string, env: Record<string, string>, read: (db: Database.Database) => T): T {
  const db = new Database(loadConfig(env, cwd).databasePath, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

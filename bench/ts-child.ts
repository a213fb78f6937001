// Starts a bench helper (a TypeScript file) in its own Node process through tsx, and talks to it over IPC.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { trackChild } from "./cleanup.ts";

export interface ChildMessage {
  type: string;
  [key: string]: unknown;
}

export interface TsChild {
  process: ChildProcess;
  send(message: ChildMessage): void;
  /** The next message of `type` (rejects if the child exits first). */
  next<T extends ChildMessage>(type: string, timeoutMs?: number): Promise<T>;
  /** Resolves with the exit code once the child has exited. */
  exited: Promise<number | null>;
}

/** `bundle`: a prebuilt JavaScript bundle of `file` (bin/bundle.js) to run as plain Node, without tsx. */
export function startTsChild(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd?: string,
  nodeFlags: string[] = [],
  bundle?: string,
): TsChild {
  const child = fork(bundle ?? fileURLToPath(new URL(file, import.meta.url)), [], {
    // Resolved here, so a child started in another folder (a temp dir) still finds this project's tsx.
    execArgv: bundle ? nodeFlags : [...nodeFlags, "--import", import.meta.resolve("tsx")],
    env,
    cwd,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  trackChild(child);
  const inbox: ChildMessage[] = [];
  const waiters = new Set<() => void>();
  child.on("message", (message: ChildMessage) => {
    inbox.push(message);
    for (const wake of [...waiters]) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  void exited.then(() => {
    for (const wake of [...waiters]) wake();
  });
  return {
    process: child,
    send: (message) => void child.send(message),
    next<T extends ChildMessage>(type: string, timeoutMs = 120_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`bench child ${file}: no "${type}" message after ${timeoutMs} ms`)),
          timeoutMs,
        );
        const finish = (err?: Error, message?: ChildMessage) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (err) reject(err);
          else resolve(message as T);
        };
        const check = () => {
          const at = inbox.findIndex((m) => m.type === type);
          if (at >= 0) return finish(undefined, inbox.splice(at, 1)[0]);
          const failed = inbox.find((m) => m.type === "error");
          if (failed) return finish(new Error(`bench child ${file} failed: ${String(failed.message)}`));
          if (child.exitCode !== null || child.signalCode !== null)
            finish(new Error(`bench child ${file} exited (${child.exitCode ?? child.signalCode}) before "${type}"`));
        };
        waiters.add(check);
        check();
      });
    },
    exited,
  };
}

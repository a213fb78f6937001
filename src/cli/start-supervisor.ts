// Starts the background supervisor for exec, as a client starts its daemon: detached, its output to a log file, its
// start-up told over a pipe (serving, the folder already taken, or why it could not start).
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { makePrivateFolder } from "../../db/private-file.ts";
import type { Config } from "../config.ts";

/** What the supervisor writes on its report pipe, once. */
export type StartReport = { serving: true } | { lost: true } | { error: string };

/** The supervisor's log, in the logs folder. */
export const supervisorLogOf = (config: Config) => path.join(config.logsDir, "supervisor.log");

/** The file descriptor the report pipe is on in the supervisor. */
const REPORT_FD = 3;

/**
 * Starts `rl-chatops supervise` detached (its own session: a Ctrl-C in exec's terminal never reaches it) with this
 * process's settings and working folder, and resolves with its report; a supervisor that exits without one is
 * reported as an error naming its log.
 */
export function startSupervisor(config: Config): Promise<StartReport> {
  const log = supervisorLogOf(config);
  // The data folder is made here when exec is the first to use it: 0700, as the bot makes it.
  makePrivateFolder(config.dataDir);
  mkdirSync(config.logsDir, { recursive: true });
  const out = openSync(log, "a", 0o600);
  try {
    const child = spawn(
      process.execPath,
      [...process.execArgv, process.argv[1]!, "supervise", "--report-fd", String(REPORT_FD)],
      { detached: true, stdio: ["ignore", out, out, "pipe"], cwd: process.cwd(), env: process.env },
    );
    const pipe = child.stdio[REPORT_FD] as NodeJS.ReadableStream & { destroy(): void };
    return new Promise((resolve) => {
      let text = "";
      let settled = false;
      const settle = (report: StartReport) => {
        if (settled) return;
        settled = true;
        // A run the supervisor started may hold the pipe's other end too: done with it here, and with the child, which
        // lives on without this process.
        pipe.destroy();
        child.unref();
        resolve(report);
      };
      const failed = (why: string): StartReport => ({
        error: `The background supervisor could not start (${why}); see its log ${log}.`,
      });
      const exited = () =>
        failed(child.signalCode ? `killed by ${child.signalCode}` : `exit code ${String(child.exitCode)}`);
      pipe.setEncoding("utf8");
      pipe.on("data", (chunk: string) => {
        text += chunk;
        const end = text.indexOf("\n");
        if (end < 0) return;
        try {
          settle(JSON.parse(text.slice(0, end)) as StartReport);
        } catch {
          settle(failed("it did not report"));
        }
      });
      pipe.on("error", () => undefined);
      child.once("error", (err) => settle(failed(err.message)));
      // Ended without a report: it died starting.
      pipe.on("end", () => {
        if (child.exitCode !== null || child.signalCode !== null) settle(exited());
        else child.once("exit", () => settle(exited()));
      });
    });
  } finally {
    closeSync(out);
  }
}

/** The supervisor's side: writes its report once to the pipe exec gave it (or nowhere when started by hand). */
export function reporterTo(fd: string | undefined): (report: StartReport) => void {
  let open = fd !== undefined && /^\d+$/.test(fd);
  return (report) => {
    if (!open) return;
    open = false;
    try {
      writeSync(Number(fd), `${JSON.stringify(report)}\n`);
      closeSync(Number(fd));
    } catch {
      // exec went away (Ctrl-C): nobody is waiting for the report.
    }
  };
}

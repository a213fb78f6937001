// The processes of each run: pid and its start time (so a reused pid is never mistaken), log file, exit.
import type { Db } from "./open-database.ts";

/** A process of a run, named by its training stack ("api", "trainer", "env" for atropos-tinker). */
export type Component = string;
export type ProcessState = "starting" | "ready" | "exited";

export interface ProcessRow {
  runId: string;
  component: Component;
  pid?: number;
  /** The kernel's start time of the pid (/proc/PID/stat field 22), to tell a reused pid apart. */
  startTime?: string;
  logPath: string;
  state: ProcessState;
  exitCode?: number;
  signal?: string;
  startedAt?: number;
  endedAt?: number;
}

interface RawProcess {
  run_id: string;
  component: Component;
  pid: number | null;
  start_time: string | null;
  log_path: string;
  state: ProcessState;
  exit_code: number | null;
  signal: string | null;
  started_at: number | null;
  ended_at: number | null;
}

export interface RunProcessesRepo {
  upsert(row: ProcessRow): void;
  list(runId: string): ProcessRow[];
  markExited(
    runId: string,
    component: Component,
    exitCode: number | undefined,
    signal: string | undefined,
    at: number,
  ): void;
  markReady(runId: string, component: Component): void;
}

export function createRunProcessesRepo(db: Db): RunProcessesRepo {
  const upsert = db.prepare(
    `INSERT INTO run_processes (run_id, component, pid, start_time, log_path, state, exit_code, signal, started_at, ended_at)
     VALUES (@runId, @component, @pid, @startTime, @logPath, @state, @exitCode, @signal, @startedAt, @endedAt)
     ON CONFLICT (run_id, component) DO UPDATE SET pid = excluded.pid, start_time = excluded.start_time, log_path = excluded.log_path,
       state = excluded.state, exit_code = excluded.exit_code, signal = excluded.signal, started_at = excluded.started_at, ended_at = excluded.ended_at`,
  );
  const list = db.prepare<[string], RawProcess>(
    "SELECT * FROM run_processes WHERE run_id = ? ORDER BY CASE component WHEN 'api' THEN 0 WHEN 'trainer' THEN 1 ELSE 2 END",
  );
  const exited = db.prepare(
    "UPDATE run_processes SET state = 'exited', exit_code = ?, signal = ?, ended_at = ? WHERE run_id = ? AND component = ? AND state != 'exited'",
  );
  const ready = db.prepare(
    "UPDATE run_processes SET state = 'ready' WHERE run_id = ? AND component = ? AND state = 'starting'",
  );
  return {
    upsert: (r) =>
      void upsert.run({
        runId: r.runId,
        component: r.component,
        pid: r.pid ?? null,
        startTime: r.startTime ?? null,
        logPath: r.logPath,
        state: r.state,
        exitCode: r.exitCode ?? null,
        signal: r.signal ?? null,
        startedAt: r.startedAt ?? null,
        endedAt: r.endedAt ?? null,
      }),
    list: (runId) =>
      list.all(runId).map((r) => ({
        runId: r.run_id,
        component: r.component,
        pid: r.pid ?? undefined,
        startTime: r.start_time ?? undefined,
        logPath: r.log_path,
        state: r.state,
        exitCode: r.exit_code ?? undefined,
        signal: r.signal ?? undefined,
        startedAt: r.started_at ?? undefined,
        endedAt: r.ended_at ?? undefined,
      })),
    markExited: (runId, component, exitCode, signal, at) =>
      void exited.run(exitCode ?? null, signal ?? null, at, runId, component),
    markReady: (runId, component) => void ready.run(runId, component),
  };
}

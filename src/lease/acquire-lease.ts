// The data folder's lease: an exclusive SQLite lock on bot.lock, held until the connection closes and dropped by the kernel when the process dies.
import { rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { makePrivateFile, makePrivateFolder } from "../../db/private-file.ts";
import { RlError } from "../errors.ts";
import { processStartTime } from "../process/process-info.ts";
import { checkDataDir } from "./check-data-dir.ts";
import {
  describeHolder,
  pidFileOf,
  readLeaseHolder,
  writeLeaseHolder,
  type LeaseHolder,
  type LeaseMode,
} from "./lease-holder.ts";
import { socketPathFor } from "./socket-path.ts";

export interface Lease {
  dataDir: string;
  socketPath: string;
  holder: LeaseHolder;
  /** Its socket accepts commands: the pid file says "ready" (until then it says "starting", and clients wait). */
  markReady(): void;
  /** Let go of the data folder: the pid file and socket go first, so the next holder never sees ours. */
  release(): void;
}

export type LeaseAttempt = { lease: Lease } | { holder: LeaseHolder | undefined };

export const lockFileOf = (dataDir: string) => path.join(dataDir, "bot.lock");

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED";
}

/** Take the lease if nobody holds it; otherwise say who does. Never waits. */
export function tryAcquireLease(dataDir: string, mode: LeaseMode): LeaseAttempt {
  // The command line checked it already; createBot's other callers (tests, benchmarks) are covered here.
  checkDataDir(dataDir);
  makePrivateFolder(dataDir);
  makePrivateFile(lockFileOf(dataDir));
  const lock = new Database(lockFileOf(dataDir));
  try {
    lock.pragma("busy_timeout = 0");
    // In exclusive locking mode SQLite keeps its POSIX lock after the first write until the connection closes.
    lock.pragma("locking_mode = EXCLUSIVE");
    lock.exec("BEGIN EXCLUSIVE");
    lock.exec(
      "CREATE TABLE IF NOT EXISTS lease (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, at TEXT NOT NULL)",
    );
    lock
      .prepare("INSERT OR REPLACE INTO lease (id, pid, at) VALUES (1, ?, ?)")
      .run(process.pid, new Date().toISOString());
    lock.exec("COMMIT");
  } catch (err) {
    lock.close();
    if (isBusy(err)) return { holder: readLeaseHolder(dataDir) };
    throw new RlError(
      "CONFIG",
      `Could not lock the data folder ${dataDir}: ${(err as Error).message}. Check that it is writable.`,
      { cause: err },
    );
  }
  const socketPath = socketPathFor(dataDir);
  const holder: LeaseHolder = {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    startedAt: new Date().toISOString(),
    mode,
    socket: socketPath,
    state: "starting",
  };
  writeLeaseHolder(dataDir, holder);
  let released = false;
  return {
    lease: {
      dataDir,
      socketPath,
      holder,
      markReady() {
        if (released) return;
        holder.state = "ready";
        writeLeaseHolder(dataDir, holder);
      },
      release() {
        if (released) return;
        released = true;
        rmSync(socketPath, { force: true });
        rmSync(pidFileOf(dataDir), { force: true });
        lock.close();
      },
    },
  };
}

/** The bot's way in: the lease, or a one-line refusal naming the holder. */
export function acquireLease(dataDir: string, mode: LeaseMode): Lease {
  const attempt = tryAcquireLease(dataDir, mode);
  if ("lease" in attempt) return attempt.lease;
  throw new RlError(
    "CONFLICT",
    `${describeHolder(attempt.holder)} owns the data folder ${dataDir}. Stop it, or set RL_DATA_DIR to another folder.`,
    // leaseTaken: a background supervisor started by a racing exec exits quietly on it.
    { details: { pid: attempt.holder?.pid, leaseTaken: true } },
  );
}

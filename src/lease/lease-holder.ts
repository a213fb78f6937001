// The pid file beside the lock: who holds the data folder's lease, so a refusal can name them and exec can find the socket.
import { readFileSync, writeFileSync, renameSync } from "node:fs";
import path from "node:path";

/** "bot": started by a person (with its platforms or console); "background": the supervisor exec starts when none runs. */
export type LeaseMode = "bot" | "background";

export interface LeaseHolder {
  pid: number;
  /** The kernel's start time of the pid (/proc), which tells a reused pid from the holder. */
  startTime?: string;
  startedAt: string;
  mode: LeaseMode;
  socket?: string;
  /**
   * "starting" from the moment it holds the folder until its socket accepts commands (it recovers its runs first);
   * "ready" after. Absent in a file written by a version before it: taken as ready.
   */
  state?: "starting" | "ready";
}

const optionalString = (value: unknown) => value === undefined || typeof value === "string";

/** Checked by hand: exec's client reads this file, and a schema library would be most of what it loads. */
function isLeaseHolder(value: unknown): value is LeaseHolder {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    Number.isInteger(v.pid) &&
    optionalString(v.startTime) &&
    typeof v.startedAt === "string" &&
    (v.mode === "bot" || v.mode === "background") &&
    optionalString(v.socket) &&
    (v.state === undefined || v.state === "starting" || v.state === "ready")
  );
}

export const pidFileOf = (dataDir: string) => path.join(dataDir, "bot.pid");

/** The recorded holder, or undefined when the file is missing or unreadable (the holder has not written it yet). */
export function readLeaseHolder(dataDir: string): LeaseHolder | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(pidFileOf(dataDir), "utf8"));
    return isLeaseHolder(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole through a rename, so a reader never sees half a file. */
export function writeLeaseHolder(dataDir: string, holder: LeaseHolder): void {
  const file = pidFileOf(dataDir);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  renameSync(partial, file);
}

/** Whether the holder's socket takes commands yet (a holder written before "state" existed does). */
export const isReady = (holder: LeaseHolder): boolean => holder.state !== "starting";

export function describeHolder(holder: LeaseHolder | undefined): string {
  if (!holder) return "Another rl-chatops";
  const what = holder.mode === "background" ? "The background supervisor" : "Another rl-chatops";
  return `${what} (pid ${holder.pid}, started ${holder.startedAt})`;
}

// The pid file beside the lock: who holds the data folder's lease, so a refusal can name them and exec can find the socket.
import { readFileSync, writeFileSync, renameSync } from "node:fs";
import path from "node:path";
import * as z from "zod/mini";
import "../zod-english.ts";

/** "bot": started by a person (with its platforms or console); "background": the supervisor exec starts when none runs. */
export type LeaseMode = "bot" | "background";

const holderSchema = z.object({
  pid: z.int(),
  /** The kernel's start time of the pid (/proc), which tells a reused pid from the holder. */
  startTime: z.optional(z.string()),
  startedAt: z.string(),
  mode: z.enum(["bot", "background"]),
  socket: z.optional(z.string()),
});

export type LeaseHolder = z.infer<typeof holderSchema>;

export const pidFileOf = (dataDir: string) => path.join(dataDir, "bot.pid");

/** The recorded holder, or undefined when the file is missing or unreadable (the holder has not written it yet). */
export function readLeaseHolder(dataDir: string): LeaseHolder | undefined {
  try {
    const parsed = holderSchema.safeParse(JSON.parse(readFileSync(pidFileOf(dataDir), "utf8")));
    return parsed.success ? parsed.data : undefined;
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

export function describeHolder(holder: LeaseHolder | undefined): string {
  if (!holder) return "Another rl-chatops";
  const what = holder.mode === "background" ? "The background supervisor" : "Another rl-chatops";
  return `${what} (pid ${holder.pid}, started ${holder.startedAt})`;
}

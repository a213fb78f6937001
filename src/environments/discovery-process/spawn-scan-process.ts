// Starts and stops the bot's discovery process (scan-process.ts): plain Node on dist/scan-process.js from the build,
// the TypeScript entry through tsx from the sources (vitest, the bench), an argv array either way. It takes none of
// the bot's Node flags: the bot's small young generation suits a thread that must answer quickly, not a parser.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PACKAGE_ROOT } from "../../package-root.ts";
import { offlineNodeEnv } from "../../process/child-env.ts";
import { STOP_GRACE_MS } from "../threads/spawn-worker.ts";

const FROM_SOURCES = import.meta.url.endsWith(".ts");

/**
 * V8 collects the discovery process's garbage on its main thread, with no helper threads: on Linux each runnable thread
 * gets a time slice of up to a scheduler tick (4 ms) before a waiting bot thread, and discovery's collection helpers
 * queued beside its main thread made gaps of 8-15 ms in the bot's event loop. Its compiler threads stay (without them
 * a rescan of 1,000 files with 10 changed took 505-520 ms instead of 340-360).
 */
const DISCOVERY_NODE_FLAGS = ["--single-threaded-gc"];

/** The discovery process, with its IPC channel. */
export type ScanProcess = ChildProcess;

export function spawnScanProcess(): ScanProcess {
  const entry = FROM_SOURCES
    ? ["--import", import.meta.resolve("tsx"), fileURLToPath(new URL("./scan-process.ts", import.meta.url))]
    : [path.join(PACKAGE_ROOT, "dist", "scan-process.js")];
  return spawn(process.execPath, [...DISCOVERY_NODE_FLAGS, ...entry], {
    // The bot's environment without its chat secrets and its TLS certificates, which discovery has no use for.
    env: offlineNodeEnv(process.env),
    // Its stderr is the bot's: a crash says why where the bot's log is.
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    serialization: "advanced",
  });
}

const gone = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * Closes the channel (the process stops its helpers, each between two parses, and exits), and kills it if it has not
 * after the parse helpers' own grace period (STOP_GRACE_MS): killing it is safe at any moment, as it writes nothing.
 */
export async function stopScanProcess(child: ChildProcess): Promise<void> {
  if (gone(child)) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  if (gone(child)) return;
  child.ref();
  if (child.connected) child.disconnect();
  const overdue = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
  await exited;
  clearTimeout(overdue);
}

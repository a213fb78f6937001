// Starts and stops the bot's discovery process (scan-process.ts): plain Node on dist/scan-process.js from the build,
// the TypeScript entry through tsx from the sources (vitest, the bench), an argv array either way. It takes none of
// the bot's Node flags: the bot's small young generation suits a thread that must answer quickly, not a parser.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SECRET_SETTINGS } from "../../config.ts";
import { PACKAGE_ROOT } from "../../package-root.ts";

const FROM_SOURCES = import.meta.url.endsWith(".ts");

/**
 * V8 collects the discovery process's garbage on its main thread, with no helper threads: on Linux each runnable thread
 * gets a time slice of up to a scheduler tick (4 ms) before a waiting bot thread, and discovery's collection helpers
 * queued beside its main thread made gaps of 8-15 ms in the bot's event loop. Its compiler threads stay (without them
 * a rescan of 1,000 files with 10 changed took 505-520 ms instead of 340-360).
 */
const DISCOVERY_NODE_FLAGS = ["--single-threaded-gc"];

/**
 * How long the discovery process has to stop by itself once its channel is closed before it is killed: it stops its
 * parse helpers first, each between two parses, and one file's parse takes well under 1 s. Killing it is safe at any
 * moment (it writes nothing); waiting lets it end as a process that was not killed. RL_THREAD_STOP_GRACE_MS shortens
 * it, read only by the test that stops discovery in the middle of its parses.
 */
const STOP_GRACE_MS = ((setting) => (setting >= 0 ? setting : 5_000))(
  Number(process.env.RL_THREAD_STOP_GRACE_MS || NaN),
);

/** The bot's environment without its chat secrets, which discovery has no use for. */
function discoveryEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of SECRET_SETTINGS) delete env[name];
  return env;
}

/** The discovery process, with its IPC channel. */
export type ScanProcess = ChildProcess;

export function spawnScanProcess(): ScanProcess {
  const entry = FROM_SOURCES
    ? ["--import", import.meta.resolve("tsx"), fileURLToPath(new URL("./scan-process.ts", import.meta.url))]
    : [path.join(PACKAGE_ROOT, "dist", "scan-process.js")];
  return spawn(process.execPath, [...DISCOVERY_NODE_FLAGS, ...entry], {
    env: discoveryEnv(),
    // Its stderr is the bot's: a crash says why where the bot's log is.
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    serialization: "advanced",
  });
}

const gone = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Closes the channel (the process stops its helpers and exits), and kills it if it has not after STOP_GRACE_MS. */
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

// Starts one of discovery's worker threads: dist/<name>.js when running from the build, or the TypeScript entry
// beside this file when running from the sources (tsx, vitest), through a small bootstrap that registers tsx first.
import path from "node:path";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { PACKAGE_ROOT } from "../../package-root.ts";

export type WorkerName = "scan-worker" | "parse-worker";

const FROM_SOURCES = import.meta.url.endsWith(".ts");

export function spawnWorker(name: WorkerName, options: WorkerOptions = {}): Worker {
  if (!FROM_SOURCES) return new Worker(path.join(PACKAGE_ROOT, "dist", `${name}.js`), options);
  // A worker does not inherit the parent's loader hooks, and `--import` in its execArgv comes too late for its own entry.
  const tsx = import.meta.resolve("tsx/esm/api");
  const entry = new URL(`./${name}.ts`, import.meta.url).href;
  const boot = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), options);
}

/** Asks a discovery thread to stop once it is between two pieces of work (see stopWorker). */
export interface StopRequest {
  type: "stop";
}

export const isStopRequest = (message: unknown): message is StopRequest =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === "stop";

/** How long a discovery thread has to stop by itself before it is terminated. One file's parse takes well under 1 s. */
const STOP_GRACE_MS = 5_000;

/**
 * Stops a discovery thread without terminating it while it may be inside tree-sitter: Worker.terminate() during a
 * parse aborts the whole process (the parser's binding calls back into JavaScript for the source, and the C++
 * exception it throws when that call is refused is caught by nothing). The thread is asked to stop, which it does
 * between two parses; only one that has not stopped after STOP_GRACE_MS is terminated. The process stays alive until
 * the thread has gone, for the same reason: exiting stops every thread where it stands.
 */
export async function stopWorker(worker: Worker): Promise<void> {
  if (worker.threadId === -1) return;
  await new Promise<void>((resolve) => {
    const overdue = setTimeout(() => void worker.terminate().finally(resolve), STOP_GRACE_MS);
    worker.once("exit", () => {
      clearTimeout(overdue);
      resolve();
    });
    worker.ref();
    worker.postMessage({ type: "stop" } satisfies StopRequest);
  });
}

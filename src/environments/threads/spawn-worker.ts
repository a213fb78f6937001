// Starts and stops discovery's worker threads; a thread is terminated only once its gate shows no parse running in it.
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { PACKAGE_ROOT } from "../../package-root.ts";
import { closeGate, gatesForNewThread, type ParseGates } from "./parse-gate.ts";

export type WorkerName = "parse-worker";

const FROM_SOURCES = import.meta.url.endsWith(".ts");

/** Each thread's own gate (the last of the gates it was started with), which stopWorker closes before terminating it. */
const ownGates = new WeakMap<Worker, SharedArrayBuffer>();

/**
 * Starts dist/<name>.cjs (CommonJS, bin/build.mjs) when running from the build, or the TypeScript entry beside this
 * file when running from the sources (tsx, vitest), through a small bootstrap that registers tsx first. `workerData`
 * is an object: the thread's parse gates are added to it.
 */
export function spawnWorker(name: WorkerName, workerData: object = {}): Worker {
  const parseGates = gatesForNewThread();
  const options: WorkerOptions = { workerData: { ...workerData, parseGates } satisfies ParseGates };
  let worker: Worker;
  if (!FROM_SOURCES) worker = new Worker(path.join(PACKAGE_ROOT, "dist", `${name}.cjs`), options);
  else {
    // A worker does not inherit the parent's loader hooks, and `--import` in its execArgv comes too late for its own entry.
    // register() starts a loader thread that transforms every module the worker loads.
    const tsx = import.meta.resolve("tsx/esm/api");
    const entry = new URL(`./${name}.ts`, import.meta.url).href;
    const boot = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry)});`;
    worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), options);
  }
  ownGates.set(worker, parseGates.at(-1)!);
  return worker;
}

/** Asks a discovery thread to stop once it is between two pieces of work (see stopWorker). */
export interface StopRequest {
  type: "stop";
}

export const isStopRequest = (message: unknown): message is StopRequest =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === "stop";

/**
 * How long a discovery thread has to stop by itself before it is terminated. One file's parse takes well under 1 s.
 * RL_THREAD_STOP_GRACE_MS shortens it, read only by the test that stops threads in the middle of their parses.
 */
export const STOP_GRACE_MS = ((setting) => (setting >= 0 ? setting : 5_000))(
  Number(process.env.RL_THREAD_STOP_GRACE_MS || NaN),
);
/** How often a thread past its grace is looked at again while one of its tree's threads is still inside a parse. */
const PARSE_POLL_MS = 5;

/**
 * Stops a discovery thread without terminating it while it, or a thread it started, is inside tree-sitter:
 * Worker.terminate() during a parse aborts the whole process (the parser's binding calls back into JavaScript for the
 * source, and the C++ exception it throws when that call is refused is caught by nothing). The thread is asked to
 * stop, which it does between two parses. One that has not stopped after STOP_GRACE_MS is terminated, but only once
 * its gate is closed (parse-gate.ts): while a parse runs in its tree, it is waited for, and a parse is bounded (files
 * have a size limit). The process stays alive until the thread has gone, for the same reason: exiting stops every
 * thread where it stands.
 */
export async function stopWorker(worker: Worker): Promise<void> {
  if (worker.threadId === -1) return;
  let exited = false;
  const exit = new Promise<void>((resolve) => worker.once("exit", resolve)).then(() => {
    exited = true;
  });
  worker.ref();
  worker.postMessage({ type: "stop" } satisfies StopRequest);
  const gate = ownGates.get(worker);
  const overdue = new AbortController();
  const terminated = (async () => {
    await delay(STOP_GRACE_MS, undefined, { signal: overdue.signal });
    while (!exited && gate && !closeGate(gate)) await delay(PARSE_POLL_MS, undefined, { signal: overdue.signal });
    if (!exited) await worker.terminate();
  })().catch(() => undefined);
  await exit;
  overdue.abort();
  await terminated;
}

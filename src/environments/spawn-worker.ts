// Starts one of discovery's worker threads: dist/<name>.js when running from the build, or the TypeScript entry
// beside this file when running from the sources (tsx, vitest), through a small bootstrap that registers tsx first.
import path from "node:path";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { PACKAGE_ROOT } from "../package-root.ts";

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

// Discovery for the bot: the same scanner, run in a worker thread (scan-worker.ts), started on the first scan and
// kept for the next ones (its content cache is what makes a rescan cheap). This thread only posts the folder and
// puts the answer back together: the environments that did not change since its last answer are kept as they are,
// the others come a small batch per turn of its event loop. A worker that dies fails the scans it owed and is started
// afresh by the next one.
import type { Worker } from "node:worker_threads";
import { RlError, type ErrorCode } from "../../errors.ts";
import type { EnvironmentScanner, EnvironmentScannerOptions, ScanStats } from "../scanner.ts";
import { createFieldReceiver, type SentBatch } from "./shared-fields.ts";
import { spawnWorker, stopWorker } from "./spawn-worker.ts";
import type { EnvironmentInfo, ScanResult, ScanWarning } from "../types.ts";

/** The options that cross to the worker: plain data, no functions. */
export type WorkerScannerOptions = Pick<
  EnvironmentScannerOptions,
  "lockedEnv" | "recursive" | "maxFileBytes" | "parseThreads" | "atroposlib" | "trainerConfigFile"
> & {
  /** What the folder holds: Atropos environments (the default), or tinker-cookbook recipes. */
  kind?: "environments" | "recipes";
};

export interface ScanWorkerData {
  options: WorkerScannerOptions;
}

/** A scan, or (after each batch of its result) the next batch. */
export type ScanRequest = { type: "scan"; id: number; dir: string } | { type: "more"; id: number };

export type ScanReply =
  /** For each environment of the result, its index in the previous result the bot got, or -1: sent in the batches. */
  | { type: "plan"; id: number; kept: number[] }
  | ({ type: "environments"; id: number } & SentBatch)
  | ({ type: "done"; id: number; warnings: ScanWarning[]; stats: ScanStats } & Pick<
      ScanResult,
      "baseConfigSource" | "trainerFields" | "trainerConfigSource"
    >)
  /** Nothing changed since the result this thread got last. */
  | { type: "same"; id: number; stats: ScanStats }
  | { type: "failed"; id: number; code: string; message: string };

interface Pending {
  kept: number[];
  /** The new or changed environments, in order. */
  environments: EnvironmentInfo[];
  resolve: (result: ScanResult) => void;
  reject: (err: RlError) => void;
}

export function createWorkerScanner(options: WorkerScannerOptions): EnvironmentScanner {
  let worker: Worker | undefined;
  /** The fields the current thread has sent (a new thread starts its numbering afresh). */
  let receiveFields = createFieldReceiver();
  let nextId = 0;
  const pending = new Map<number, Pending>();
  let lastResult: ScanResult | undefined;
  let lastStats: ScanStats = { parsed: 0, cached: 0, unreached: 0 };

  const settle = (id: number): Pending | undefined => {
    const entry = pending.get(id);
    pending.delete(id);
    // An idle worker does not keep the process alive; one that owes an answer does.
    if (pending.size === 0) worker?.unref();
    return entry;
  };

  function onReply(message: ScanReply): void {
    const entry = pending.get(message.id);
    if (!entry) return;
    switch (message.type) {
      case "plan":
        entry.kept = message.kept;
        return;
      case "environments":
        entry.environments.push(...receiveFields(message));
        worker?.postMessage({ type: "more", id: message.id } satisfies ScanRequest);
        return;
      case "done": {
        lastStats = message.stats;
        const previous = lastResult?.environments ?? [];
        let changed = 0;
        const environments = entry.kept.map((index) => (index >= 0 ? previous[index] : entry.environments[changed++]));
        if (environments.some((env) => env === undefined)) {
          lastResult = undefined;
          settle(message.id)?.reject(
            new RlError("INTERNAL", "Discovery's answer did not fit the result this process holds; try again."),
          );
          return;
        }
        lastResult = {
          environments: environments as EnvironmentInfo[],
          warnings: message.warnings,
          ...(message.baseConfigSource ? { baseConfigSource: message.baseConfigSource } : {}),
          ...(message.trainerFields
            ? { trainerFields: message.trainerFields, trainerConfigSource: message.trainerConfigSource }
            : {}),
        };
        settle(message.id)?.resolve(lastResult);
        return;
      }
      case "same":
        lastStats = message.stats;
        if (lastResult) settle(message.id)?.resolve(lastResult);
        else
          settle(message.id)?.reject(
            new RlError("INTERNAL", "Discovery answered with an earlier result this process never received."),
          );
        return;
      case "failed":
        settle(message.id)?.reject(new RlError(message.code as ErrorCode, message.message));
        return;
    }
  }

  function start(): Worker {
    const started = spawnWorker("scan-worker", { options } satisfies ScanWorkerData);
    receiveFields = createFieldReceiver();
    started.on("message", onReply);
    const lost = (reason: string) => {
      if (worker !== started) return;
      worker = undefined;
      lastResult = undefined;
      for (const id of [...pending.keys()])
        settle(id)?.reject(new RlError("INTERNAL", `Discovery stopped unexpectedly (${reason}); try again.`));
    };
    started.on("error", (err) => lost(err.message));
    started.on("exit", (code) => lost(`exit code ${code}`));
    return started;
  }

  return {
    scan(dir) {
      worker ??= start();
      const id = nextId++;
      const running = worker;
      return new Promise<ScanResult>((resolve, reject) => {
        pending.set(id, { kept: [], environments: [], resolve, reject });
        running.ref();
        running.postMessage({ type: "scan", id, dir } satisfies ScanRequest);
      });
    },
    stats: () => ({ ...lastStats }),
    async close() {
      const stopping = worker;
      worker = undefined;
      lastResult = undefined;
      for (const id of [...pending.keys()])
        settle(id)?.reject(new RlError("INTERNAL", "Discovery was stopped before it answered."));
      if (stopping) await stopWorker(stopping);
    },
  };
}

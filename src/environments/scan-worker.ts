// The discovery thread the bot scans in (started by worker-scanner.ts): it owns a scanner, and with it the content
// cache, the native parser and any helper threads, so the bot's event loop never waits on reading or parsing.
import { parentPort, workerData } from "node:worker_threads";
import { createEnvironmentScanner } from "./scanner.ts";
import type { ScanReply, ScanRequest, ScanWorkerData } from "./worker-scanner.ts";
import type { ScanResult } from "./types.ts";

/** Environments per message: the bot's thread decodes each message in one go, so none may be large. */
const BATCH = 50;

const port = parentPort;
if (!port) throw new Error("scan-worker.ts runs as a worker thread");
const scanner = createEnvironmentScanner((workerData as ScanWorkerData).options);
let lastSent: ScanResult | undefined;
const reply = (message: ScanReply) => port.postMessage(message);

port.on("message", (request: ScanRequest) => {
  scanner.scan(request.dir).then(
    (result) => {
      const stats = scanner.stats();
      // The scanner hands back the very same result when nothing changed: the bot's copy still holds.
      if (result === lastSent) return reply({ type: "same", id: request.id, stats });
      for (let at = 0; at < result.environments.length; at += BATCH) {
        reply({ type: "environments", id: request.id, environments: result.environments.slice(at, at + BATCH) });
      }
      reply({ type: "done", id: request.id, warnings: result.warnings, stats });
      lastSent = result;
    },
    (err: { code: string; message: string }) => reply({ type: "failed", id: request.id, code: err.code, message: err.message }),
  );
});

// The discovery thread the bot scans in (started by worker-scanner.ts): it owns a scanner, and with it the content
// cache, the native parser and any helper threads, so the bot's event loop never waits on reading or parsing.
import { parentPort, workerData } from "node:worker_threads";
import { createEnvironmentScanner } from "./scanner.ts";
import type { ScanReply, ScanRequest, ScanWorkerData } from "./worker-scanner.ts";
import type { ScanResult } from "./types.ts";

/**
 * Environments per message. The bot's thread decodes a message in one go (a thousand environments with their fields
 * take hundreds of milliseconds), and the next is sent only once it asks: each batch costs it a millisecond or two.
 */
const BATCH = 10;

const port = parentPort;
if (!port) throw new Error("scan-worker.ts runs as a worker thread");
const scanner = createEnvironmentScanner((workerData as ScanWorkerData).options);
let lastSent: ScanResult | undefined;
/** Scans whose result is being handed over: the rest of the environments, sent as the bot asks for more. */
const sending = new Map<number, { result: ScanResult; next: number }>();
const reply = (message: ScanReply) => port.postMessage(message);

function sendMore(id: number): void {
  const handover = sending.get(id);
  if (!handover) return;
  const { result, next } = handover;
  if (next < result.environments.length) {
    handover.next = next + BATCH;
    reply({ type: "environments", id, environments: result.environments.slice(next, next + BATCH) });
    return;
  }
  sending.delete(id);
  const { baseConfigSource, trainerFields, trainerConfigSource } = result;
  reply({ type: "done", id, warnings: result.warnings, stats: scanner.stats(), ...(baseConfigSource ? { baseConfigSource } : {}), ...(trainerFields ? { trainerFields, trainerConfigSource } : {}) });
  lastSent = result;
}

port.on("message", (request: ScanRequest) => {
  if (request.type === "more") return sendMore(request.id);
  scanner.scan(request.dir).then(
    (result) => {
      // The scanner hands back the very same result when nothing changed: the bot's copy still holds.
      if (result === lastSent) return reply({ type: "same", id: request.id, stats: scanner.stats() });
      sending.set(request.id, { result, next: 0 });
      sendMore(request.id);
    },
    (err: { code: string; message: string }) => reply({ type: "failed", id: request.id, code: err.code, message: err.message }),
  );
});

// The discovery thread the bot scans in (started by worker-scanner.ts): it owns a scanner, and with it the content
// cache, the native parser and any helper threads, so the bot's event loop never waits on reading or parsing.
import { createHash } from "node:crypto";
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { recipesAsScanner } from "../recipes/recipes-as-scanner.ts";
import { createEnvironmentScanner, type EnvironmentScanner, type ScanStats } from "../scanner.ts";
import { createFieldSender } from "./shared-fields.ts";
import { DISCOVERY_NICE, isStopRequest, type StopRequest } from "./spawn-worker.ts";
import type { ScanReply, ScanRequest, ScanWorkerData } from "./worker-scanner.ts";
import type { EnvironmentInfo, ScanResult } from "../types.ts";

/**
 * Environments per message. The bot's thread decodes a message in one go (a thousand environments with their fields
 * take hundreds of milliseconds), and the next is sent only once it asks: each batch costs it a millisecond or two.
 */
const BATCH = 10;

const port = parentPort;
if (!port) throw new Error("scan-worker.ts runs as a worker thread");

/**
 * When CPUs are short, discovery gives way to the bot's own thread: this thread runs at a lower priority (nice 10).
 * Linux keeps the nice value per thread and new threads inherit it, so helper threads started from here do too.
 */
function lowerPriority(): void {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(threadId)) setPriority(threadId, DISCOVERY_NICE);
  } catch {
    // Not Linux, or not allowed: discovery runs at the bot's priority.
  }
}

lowerPriority();
const { options } = workerData as ScanWorkerData;
const scanner: EnvironmentScanner =
  options.kind === "recipes" ? recipesAsScanner(options.maxFileBytes) : createEnvironmentScanner(options);
const reply = (message: ScanReply) => port.postMessage(message);
const sendFields = createFieldSender();
const digestOf = (env: EnvironmentInfo) => createHash("sha1").update(JSON.stringify(env)).digest("base64");

/** The result the bot's thread holds, and where each of its environments is in it (by content). */
let lastSent: ScanResult | undefined;
let lastIndex = new Map<string, number>();
/**
 * Results are handed over one at a time, each as a difference from the one before: which of the bot's environments
 * stay as they are, then the new or changed ones, a batch each time the bot asks for more.
 */
const waiting: Array<{ id: number; result: ScanResult; stats: ScanStats }> = [];
let handover:
  | { id: number; result: ScanResult; stats: ScanStats; digests: string[]; changed: EnvironmentInfo[]; next: number }
  | undefined;

function startHandover(): void {
  while (!handover && waiting.length > 0) {
    const { id, result, stats } = waiting.shift()!;
    // The scanner hands back the very same result when nothing changed: the bot's copy still holds.
    if (result === lastSent) {
      reply({ type: "same", id, stats });
      continue;
    }
    const digests = result.environments.map(digestOf);
    const kept = digests.map((digest) => lastIndex.get(digest) ?? -1);
    handover = { id, result, stats, digests, changed: result.environments.filter((_, i) => kept[i] === -1), next: 0 };
    reply({ type: "plan", id, kept });
    sendMore(id);
  }
}

function sendMore(id: number): void {
  if (handover?.id !== id) return;
  const { result, stats, digests, changed, next } = handover;
  if (next < changed.length) {
    handover.next = next + BATCH;
    reply({ type: "environments", id, ...sendFields(changed.slice(next, next + BATCH)) });
    return;
  }
  const { baseConfigSource, trainerFields, trainerConfigSource } = result;
  reply({
    type: "done",
    id,
    warnings: result.warnings,
    stats,
    ...(baseConfigSource ? { baseConfigSource } : {}),
    ...(trainerFields ? { trainerFields, trainerConfigSource } : {}),
  });
  lastSent = result;
  lastIndex = new Map(digests.map((digest, i) => [digest, i]));
  handover = undefined;
  startHandover();
}

port.on("message", (request: ScanRequest | StopRequest) => {
  // A scan in progress is left where it stands: its helper threads are stopped first (each between two parses),
  // then this thread, from here, where it is not inside the parser either.
  if (isStopRequest(request)) return void scanner.close().finally(() => process.exit(0));
  if (request.type === "more") return sendMore(request.id);
  scanner.scan(request.dir).then(
    (result) => {
      waiting.push({ id: request.id, result, stats: scanner.stats() });
      startHandover();
    },
    (err: { code: string; message: string }) =>
      reply({ type: "failed", id: request.id, code: err.code, message: err.message }),
  );
});

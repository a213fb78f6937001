// The bot's discovery process (started by spawn-scan-process.ts). Reading and parsing a large folder is seconds of CPU
// with a heap of its own; in a process of its own, at a lower priority, none of it competes with the bot's thread as
// an equal: not its threads for a CPU, not its garbage collection's helpers (V8 shares them within a process), not
// its page faults for the memory map's lock.
import { readdirSync } from "node:fs";
import { setPriority } from "node:os";
import { DISCOVERY_NICE, type ScanReply, type ScanRequest } from "./protocol.ts";
import { serveScans, type ScanServer } from "./serve-scans.ts";

/**
 * Linux keeps the nice value per thread, and a new thread takes its starter's: every thread this process has now
 * (V8's helpers started before this code ran among them) is lowered, and any started later is lowered with it.
 */
function lowerPriority(): void {
  try {
    for (const thread of readdirSync("/proc/self/task")) setPriority(Number(thread), DISCOVERY_NICE);
  } catch {
    // Not Linux, or not allowed: the main thread at least, where setpriority takes the process.
    try {
      setPriority(DISCOVERY_NICE);
    } catch {
      // discovery runs at the bot's priority
    }
  }
}

lowerPriority();
const send = process.send?.bind(process);
if (!send) throw new Error("scan-process.ts runs as the bot's discovery process, started with an IPC channel");
// A message the bot can no longer take (it has gone) is dropped: the disconnect below ends this process.
const reply = (message: ScanReply) => void send(message, undefined, undefined, () => undefined);

let server: ScanServer | undefined;
let stopping = false;
/**
 * The bot closes the channel to stop discovery, and so does its exit, however it ends. The parse helpers are stopped
 * first, each between two parses: exiting stops every thread where it stands, which inside the parser aborts.
 */
function stop(): void {
  if (stopping) return;
  stopping = true;
  void (server?.close() ?? Promise.resolve()).finally(() => process.exit(0));
}

process.on("disconnect", stop);
// Ctrl-C at the bot's terminal reaches every process of its group: discovery is the bot's to stop, in order (the bot
// shuts down on that key, closing the channel), not the key's to end in the middle of a parse.
process.on("SIGINT", () => undefined);
process.on("message", (request: ScanRequest) => {
  if (stopping) return;
  if (request.type === "start") server ??= serveScans(request.options, reply);
  else if (!server) throw new Error(`discovery got "${request.type}" before "start"`);
  else if (request.type === "scan") server.scan(request.id, request.dir);
  else server.more(request.id);
});

// Discovery for the bot: the same scanner, run in a process of its own (scan-process.ts), started on the first scan
// and kept for the next ones (its content cache is what makes a rescan cheap). The bot only sends the folder and puts
// the answer back together: the environments that did not change since the last answer are kept as they are, the
// others come a small batch per turn of its event loop. A process that dies fails the scans it owed and is started
// afresh by the next one.
import { RlError, type ErrorCode } from "../../errors.ts";
import type { EnvironmentScanner, ScanStats } from "../scanner.ts";
import type { EnvironmentInfo, ScanResult } from "../types.ts";
import type { DiscoveryOptions, ScanReply, ScanRequest } from "./protocol.ts";
import { createFieldReceiver } from "./shared-fields.ts";
import { spawnScanProcess, stopScanProcess, type ScanProcess } from "./spawn-scan-process.ts";

interface Pending {
  kept: number[];
  /** The new or changed environments, in order. */
  environments: EnvironmentInfo[];
  resolve: (result: ScanResult) => void;
  reject: (err: RlError) => void;
}

export function createProcessScanner(options: DiscoveryOptions): EnvironmentScanner {
  let child: ScanProcess | undefined;
  /** The fields the current process has sent (a new process starts its numbering afresh). */
  let receiveFields = createFieldReceiver();
  let nextId = 0;
  const pending = new Map<number, Pending>();
  let lastResult: ScanResult | undefined;
  let lastStats: ScanStats = { parsed: 0, cached: 0, unreached: 0 };

  /** An idle discovery process does not keep the bot alive; one that owes an answer does. */
  const hold = (running: ScanProcess, held: boolean) => {
    if (held) {
      running.ref();
      running.channel?.ref();
    } else {
      running.unref();
      running.channel?.unref();
    }
  };
  const send = (running: ScanProcess, request: ScanRequest) => {
    // A process that has gone fails what it owed through its "exit".
    if (running.connected) running.send(request, undefined, undefined, () => undefined);
  };

  const settle = (id: number): Pending | undefined => {
    const entry = pending.get(id);
    pending.delete(id);
    if (pending.size === 0 && child) hold(child, false);
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
        if (child) send(child, { type: "more", id: message.id });
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

  function start(): ScanProcess {
    const started = spawnScanProcess();
    receiveFields = createFieldReceiver();
    started.on("message", (message: ScanReply) => {
      if (child === started) onReply(message);
    });
    const lost = (reason: string) => {
      if (child !== started) return;
      child = undefined;
      lastResult = undefined;
      for (const id of [...pending.keys()])
        settle(id)?.reject(new RlError("INTERNAL", `Discovery stopped unexpectedly (${reason}); try again.`));
    };
    started.on("error", (err) => lost(err.message));
    started.on("exit", (code, signal) => lost(signal ? `killed by ${signal}` : `exit code ${code}`));
    send(started, { type: "start", options });
    return started;
  }

  return {
    scan(dir) {
      child ??= start();
      const id = nextId++;
      const running = child;
      return new Promise<ScanResult>((resolve, reject) => {
        pending.set(id, { kept: [], environments: [], resolve, reject });
        hold(running, true);
        send(running, { type: "scan", id, dir });
      });
    },
    stats: () => ({ ...lastStats }),
    async close() {
      const stopping = child;
      child = undefined;
      lastResult = undefined;
      for (const id of [...pending.keys()])
        settle(id)?.reject(new RlError("INTERNAL", "Discovery was stopped before it answered."));
      if (stopping) await stopScanProcess(stopping);
    },
  };
}

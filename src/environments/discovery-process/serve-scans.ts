// Discovery's side of the handover (run by scan-process.ts): it owns a scanner, and with it the content cache, the
// native parser and any helper threads, and hands each result to the bot as a difference from the one before.
import { createHash } from "node:crypto";
import { recipesAsScanner } from "../recipes/recipes-as-scanner.ts";
import { createEnvironmentScanner, type EnvironmentScanner, type ScanStats } from "../scanner.ts";
import type { EnvironmentInfo, ScanResult } from "../types.ts";
import type { DiscoveryOptions, ScanReply } from "./protocol.ts";
import { createFieldSender } from "./shared-fields.ts";

/**
 * Environments per message. The bot's thread decodes a message in one go (a thousand environments with their fields
 * take hundreds of milliseconds), and the next is sent only once it asks: each batch costs it a millisecond or two.
 */
const BATCH = 10;

export interface ScanServer {
  scan(id: number, dir: string): void;
  /** The bot asks for the next batch of scan `id`. */
  more(id: number): void;
  /** Stops the scanner's helper threads (each between two parses). */
  close(): Promise<void>;
}

export function serveScans(options: DiscoveryOptions, reply: (message: ScanReply) => void): ScanServer {
  const scanner: EnvironmentScanner =
    options.kind === "recipes" ? recipesAsScanner(options.maxFileBytes) : createEnvironmentScanner(options);
  const sendFields = createFieldSender();
  // A rescan gives back the very objects of environments whose files, and the files they reach, stayed as they were.
  const digests = new WeakMap<EnvironmentInfo, string>();
  const digestOf = (env: EnvironmentInfo) => {
    let digest = digests.get(env);
    if (digest === undefined) {
      digest = createHash("sha1").update(JSON.stringify(env)).digest("base64");
      digests.set(env, digest);
    }
    return digest;
  };

  /** The result the bot holds, and where each of its environments is in it (by content). */
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
      more(id);
    }
  }

  function more(id: number): void {
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

  return {
    scan(id, dir) {
      scanner.scan(dir).then(
        (result) => {
          waiting.push({ id, result, stats: scanner.stats() });
          startHandover();
        },
        (err: { code: string; message: string }) => reply({ type: "failed", id, code: err.code, message: err.message }),
      );
    },
    more,
    close: () => scanner.close(),
  };
}

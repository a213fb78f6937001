// What the bot and its discovery process say to each other over the process's IPC channel (structured clone).
import type { EnvironmentScannerOptions, ScanStats } from "../scanner.ts";
import type { ScanResult, ScanWarning } from "../types.ts";
import type { SentBatch } from "./shared-fields.ts";

/** The options that cross to the discovery process: plain data, no functions. */
export type DiscoveryOptions = Pick<
  EnvironmentScannerOptions,
  "lockedEnv" | "recursive" | "maxFileBytes" | "parseThreads" | "atroposlib" | "trainerConfigFile"
> & {
  /** What the folder holds: Atropos environments (the default), or tinker-cookbook recipes. */
  kind?: "environments" | "recipes";
};

export type ScanRequest =
  /** The first message: what to scan for (not on the command line, where `ps` would show the locked values). */
  | { type: "start"; options: DiscoveryOptions }
  /** A scan, or (after each batch of its result) the next batch. */
  | { type: "scan"; id: number; dir: string }
  | { type: "more"; id: number };

export type ScanReply =
  /** For each environment of the result, its index in the previous result the bot got, or -1: sent in the batches. */
  | { type: "plan"; id: number; kept: number[] }
  | ({ type: "environments"; id: number } & SentBatch)
  | ({ type: "done"; id: number; warnings: ScanWarning[]; stats: ScanStats } & Pick<
      ScanResult,
      "baseConfigSource" | "trainerFields" | "trainerConfigSource"
    >)
  /** Nothing changed since the result the bot got last. */
  | { type: "same"; id: number; stats: ScanStats }
  | { type: "failed"; id: number; code: string; message: string };

/** The nice value of the discovery process, every thread of it: below the bot's, so the bot's thread goes first. */
export const DISCOVERY_NICE = 10;

// The environments of the configured folder, rescanned on demand (cheap: unchanged files come from the cache).
import { RlError } from "../../errors.ts";
import { nearestName } from "./nearest-name.ts";
import type { EnvironmentInfo, ScanResult } from "../types.ts";

export interface Scanner {
  scan(dir: string): Promise<ScanResult>;
}

export interface EnvironmentCatalog {
  readonly dir: string;
  list(): Promise<ScanResult>;
  /** The latest finished scan's result, if any: for what the scan just used, without scanning again. */
  latest(): ScanResult | undefined;
  /** The environment called `name`; NOT_FOUND lists what exists and the nearest name. */
  get(name: string): Promise<EnvironmentInfo>;
}

export function createEnvironmentCatalog(dir: string, scanner: Scanner): EnvironmentCatalog {
  let inFlight: Promise<ScanResult> | undefined;
  let last: ScanResult | undefined;
  // Concurrent callers share one scan rather than racing over the same files.
  const list = (): Promise<ScanResult> => {
    inFlight ??= scanner
      .scan(dir)
      .then((result) => (last = result))
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
  return {
    dir,
    list,
    latest: () => last,
    get: async (name) => {
      const { environments } = await list();
      const found =
        environments.find((e) => e.name === name) ??
        environments.find((e) => e.name.toLowerCase() === name.toLowerCase());
      if (found) return found;
      const names = environments.map((e) => e.name);
      const near = nearestName(name, names);
      throw new RlError(
        "NOT_FOUND",
        `No environment named "${name}".${near ? ` Did you mean "${near}"?` : ""} Available: ${names.join(", ") || "none (check RL_ENVIRONMENTS_DIR)"}. See /rl envs.`,
        { details: { available: names, suggestion: near } },
      );
    },
  };
}

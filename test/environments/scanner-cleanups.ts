// What a discovery test started (scanners, temporary folders), undone after each test of the file that calls this.
import { afterEach } from "vitest";
import type { EnvironmentScanner } from "../../src/environments/scanner.ts";

export function scannerCleanups(): {
  /** Runs `cleanup` after the current test. */
  later(cleanup: () => Promise<unknown>): void;
  /** Closes `scanner` after the current test. */
  closing<T extends EnvironmentScanner>(scanner: T): T;
} {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });
  return {
    later: (cleanup) => void cleanups.push(cleanup),
    closing(scanner) {
      cleanups.push(() => scanner.close());
      return scanner;
    },
  };
}

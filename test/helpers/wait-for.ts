// Waiting for an event in a test: poll a condition until it holds. The only deadline is the suite's ceiling (ceiling.ts):
// a wait is not a timing assertion, it fails only when the condition never holds.
import { WAIT_CEILING_MS } from "./ceiling.ts";

export interface WaitOptions {
  /** What to add to the failure: the output of the processes waited on, say. */
  explain?: () => string;
  /** How often to look (default 50 ms). */
  everyMs?: number;
}

export async function waitFor<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  options: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + WAIT_CEILING_MS;
  let lastError: unknown;
  for (;;) {
    let value: T | undefined | null | false;
    try {
      value = await check();
    } catch (err) {
      // A file or database being written at this moment: look again.
      lastError = err;
      value = undefined;
    }
    if (value) return value;
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : "";
      throw new Error(`Timed out waiting for ${what}${cause}${options.explain ? `\n${options.explain()}` : ""}`);
    }
    await new Promise((r) => setTimeout(r, options.everyMs ?? 50));
  }
}

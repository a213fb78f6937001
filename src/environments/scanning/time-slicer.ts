// Gives the event loop a turn whenever a scan has used up a slice of synchronous work (parsing, resolving), so chat
// acks and timers are not held up behind it.
import { setImmediate as nextTurn } from "node:timers/promises";

/** Waits for the event loop's next turn if the current slice is used up; returns at once otherwise. */
export type MaybeYield = () => Promise<void>;

/** One slicer per scanner: its slice runs on across the passes of a scan, and from one scan to the next. */
export function createTimeSlicer(sliceMs: number): MaybeYield {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await nextTurn();
    sliceStart = performance.now();
  };
}

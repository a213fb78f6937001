// The one wall-clock bound of the suite. No test decides its result by the clock: it waits for the event it needs, and
// only a test that never sees it is ended, at this ceiling (vitest's testTimeout and hookTimeout). It is generous so
// that the suite holds on a loaded machine (stress --cpu 8 beside it on 2 cores).

/** How long a test (or a hook) may take before vitest ends it. */
export const SUITE_CEILING_MS = 600_000;

/** A wait gives up with its diagnosis (what it waited for, what it saw) before the test itself is timed out. */
export const WAIT_CEILING_MS = SUITE_CEILING_MS - 60_000;

/** A child process a test starts is killed by its own timeout before the test is: a last guard, shorter than both. */
export const CHILD_CEILING_MS = WAIT_CEILING_MS - 30_000;

/**
 * RL_READY_TIMEOUT_SECONDS for the tests' training runs: the product's own bound on a process coming up, set so that a
 * loaded machine does not fail a start (and below the waits, so a start that does time out is still reported).
 */
export const READY_TIMEOUT_SECONDS = "300";

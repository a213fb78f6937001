// The background supervisor's idle watch: it lets go after the idle time, counted from when it last had work.
import { afterEach, describe, expect, it, vi } from "vitest";
import { watchIdle } from "../../src/lease/idle-exit.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("watchIdle", () => {
  it("fires once, the idle time after the last busy look, and not while busy", () => {
    vi.useFakeTimers();
    let busy = true;
    let fired = 0;
    const watch = watchIdle({ idleMs: 5000, isBusy: () => busy, onIdle: () => fired++, pollMs: 1000 });
    vi.advanceTimersByTime(20_000);
    expect(fired).toBe(0);
    busy = false;
    vi.advanceTimersByTime(4000);
    expect(fired).toBe(0);
    // Work again resets the count.
    busy = true;
    vi.advanceTimersByTime(1000);
    busy = false;
    vi.advanceTimersByTime(5000);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(fired).toBe(1);
    vi.advanceTimersByTime(60_000);
    watch.check();
    expect(fired).toBe(1);
  });

  it("with 0, fires at the first look that finds nothing to do", () => {
    vi.useFakeTimers();
    let fired = 0;
    const watch = watchIdle({ idleMs: 0, isBusy: () => false, onIdle: () => fired++ });
    watch.check();
    expect(fired).toBe(1);
  });
});

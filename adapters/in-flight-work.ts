// The work an adapter has started for events (answers, thread records, charts), so stop() can let it finish before the
// database closes under it, without waiting forever on one that hangs.

export interface InFlightWork {
  /** Keeps `work` until it settles; resolves or rejects as it does. */
  track(work: Promise<void>): Promise<void>;
  /** Waits for everything tracked now (and what it starts meanwhile is not waited for), at most `ms`. */
  settle(ms: number): Promise<void>;
}

export function createInFlightWork(): InFlightWork {
  const inFlight = new Set<Promise<void>>();
  return {
    async track(work) {
      inFlight.add(work);
      try {
        await work;
      } finally {
        inFlight.delete(work);
      }
    },
    async settle(ms) {
      if (inFlight.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      });
      await Promise.race([Promise.allSettled([...inFlight]), timeout]);
      clearTimeout(timer);
    },
  };
}

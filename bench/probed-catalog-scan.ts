// A cold scan as the bot makes one (fresh services: an empty cache, `catalog.list()`), optionally with the event-loop probe around it.
import { createServices } from "../src/services.ts";
import type { Config } from "../src/config.ts";
import { startLoopProbe, type LoopReport } from "./loop-probe.ts";

export interface CatalogScan {
  ms: number;
  environments: number;
}

export interface ProbedScan {
  scan: CatalogScan;
  loop: LoopReport;
  /** When the scan's result was back: wall clock (for requests timed elsewhere) and performance.now(). */
  end: { clock: number; perf: number };
}

const TIMER_SETTLE_MS = 10;

const clock = () => performance.timeOrigin + performance.now();
const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

/** The same cold scan, with `watch` around the scan alone (services made before it, closed after it). */
async function watchedColdScan<T>(config: Config, watch: (scan: () => Promise<CatalogScan>) => Promise<T>): Promise<T> {
  const services = createServices(config);
  try {
    return await watch(async () => {
      const begin = performance.now();
      const result = await services.catalog.list();
      return { ms: performance.now() - begin, environments: result.environments.length };
    });
  } finally {
    await services.close();
  }
}

export function coldCatalogScan(config: Config): Promise<CatalogScan> {
  return watchedColdScan(config, (scan) => scan());
}

/** The loop probe from just before the scan to a timer tick after it (a stall shows only when the next timer fires). */
export function probedCatalogScan(config: Config, onStart: () => void = () => undefined): Promise<ProbedScan> {
  return watchedColdScan(config, async (scan) => {
    const stop = startLoopProbe();
    onStart();
    const result = await scan();
    const end = { clock: clock(), perf: performance.now() };
    await sleep(TIMER_SETTLE_MS);
    return { scan: result, loop: stop(), end };
  });
}

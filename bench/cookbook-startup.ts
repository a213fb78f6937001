// One start of the bundled tinker-cookbook miniature's math_rl.train recipe by the bot, to "running", then stopped.
import { loadConfig } from "../src/config.ts";
import { createServices } from "../src/services.ts";
import { benchTempDir, onCleanup } from "./cleanup.ts";
import { killLeftOver, stopRunsAndClose } from "./close-bench-services.ts";

const CHANNEL = { platform: "slack", workspace: "TBENCH", channel: "CCOOKBOOK" };
export const COOKBOOK_RECIPE = "math_rl.train";

export interface CookbookStart {
  startMs: number;
  /** The run's process, still alive once the services were closed (should be none). */
  leftOver: number;
}

/** `services.manager.start()` on RL_STACK=tinker-cookbook with the default root (examples/tinker-cookbook) until "running". */
export async function startCookbookRun(rep: number): Promise<CookbookStart> {
  const cwd = benchTempDir(`cookbook-demo${rep}`);
  const services = createServices(loadConfig({ RL_LOG_LEVEL: "silent", RL_STACK: "tinker-cookbook" }, cwd));
  const close = onCleanup(() => stopRunsAndClose(services));
  await services.env.selectEnvironment(CHANNEL, COOKBOOK_RECIPE);
  const t0 = performance.now();
  const run = await services.manager.start({ channel: CHANNEL, userId: "bench" });
  const startMs = performance.now() - t0;
  if (run.status !== "running") throw new Error(`the cookbook run did not start: ${run.status} ${run.error ?? ""}`);
  const runPids = services.processes.list(run.id).map((p) => p.pid);
  await close();
  return { startMs, leftOver: killLeftOver(runPids) };
}

// How the scan thread is to find atroposlib, from the settings: RL_ATROPOSLIB_DIR, or the training Python to ask.
import type { Config } from "../../config.ts";
import { childEnv } from "../../process/child-env.ts";
import type { AtroposlibLookup } from "./find-atroposlib.ts";

/** RL_ATROPOSLIB_DIR, else RL_PYTHON as it runs in the training root; none on the demo stack (its miniature is the bundled table's). */
export function atroposlibLookup(
  config: Config,
  processEnv: NodeJS.ProcessEnv = process.env,
): AtroposlibLookup | undefined {
  if (config.atroposlibDir) return { dir: config.atroposlibDir };
  if (config.isDemoStack) return undefined;
  return { python: config.python, cwd: config.trainingRoot, env: childEnv(processEnv, config.trainingRoot, {}) };
}

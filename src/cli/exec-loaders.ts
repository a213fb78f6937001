// What exec's client loads only when it needs them: the full settings, the background supervisor's starter, and the
// settings' names for the .env check. An entry of the build of its own (dist/exec-loaders.js), so the one-file client
// (dist/exec-command.cjs) reaches the chunks that hold them without carrying them.
import type { Config } from "../config.ts";
import type { SupervisorStarter } from "./ask-supervisor.ts";
import { loadDataConfig } from "./load-data-config.ts";
import { loadSettingNames } from "./setting-names.ts";

/** What exec loads, only when needed (neither is needed to ask a running owner). */
export interface ExecLoaders {
  /** The full settings, the data folder checked: when it cannot be read without them, no owner runs, or to describe a wait. */
  settings: () => Promise<Config>;
  /** The background supervisor's starter, when no owner runs. */
  starter: () => Promise<SupervisorStarter>;
}

export const execLoaders: ExecLoaders & { settingNames: typeof loadSettingNames } = {
  settings: loadDataConfig,
  starter: () => import("./start-supervisor.ts"),
  settingNames: loadSettingNames,
};

// The settings of a command that uses the data folder, which is checked before anything in it is opened or created.
import type { Config } from "../config.ts";

export async function loadDataConfig(): Promise<Config> {
  const [{ loadConfig }, { checkDataDir }] = await Promise.all([
    import("../config.ts"),
    import("../lease/check-data-dir.ts"),
  ]);
  const config = loadConfig();
  checkDataDir(config.dataDir);
  return config;
}

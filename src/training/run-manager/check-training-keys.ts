// Refuses a training start when the trainer's key is missing (the bundled demo stack needs none).
import type { Config } from "../../config.ts";
import { RlError } from "../../errors.ts";

export function checkTrainingKeys(config: Config): void {
  // A stack manifest's trainer gets what it needs from its own environment; only the Tinker stacks need this key.
  if (!config.isDemoStack && !config.stackManifest && !config.keys.tinker) {
    throw new RlError(
      "MISSING_KEYS",
      "Training needs TINKER_API_KEY. Set it in the bot's environment and restart the bot.",
      {
        details: { missing: ["TINKER_API_KEY"] },
      },
    );
  }
}

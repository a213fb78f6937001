// What every measurement receives: the mode, the sizes, the generated environments folder, and a progress printer.
import type { BenchSizes } from "./bench-options.ts";
import type { GeneratedFolder } from "./generate-environments.ts";

export interface BenchContext {
  quick: boolean;
  sizes: BenchSizes;
  /** The generated folder of sizes.envFiles environment files (left unchanged by the measurements). */
  envs: GeneratedFolder;
  /** The "env" locked fields discovery marks, as the bot's default configuration loads them. */
  lockedEnv: Record<string, unknown>;
  /** Progress lines while the bench runs. */
  progress(text: string): void;
}

// The recipe scanner in the shape the discovery process runs (scan, stats, close), so recipes are read off the bot's loop.
import type { EnvironmentScanner, ScanStats } from "../scanner.ts";
import { createRecipeScanner } from "./create-recipe-scanner.ts";

export function recipesAsScanner(maxFileBytes?: number): EnvironmentScanner {
  const scanner = createRecipeScanner({ maxFileBytes });
  // Recipes are few and read whole each scan: nothing is cached, so every file read counts as parsed.
  let stats: ScanStats = { parsed: 0, cached: 0, unreached: 0 };
  return {
    async scan(dir) {
      const result = await scanner.scan(dir);
      stats = { parsed: result.environments.length, cached: 0, unreached: 0 };
      return result;
    },
    stats: () => stats,
    close: async () => undefined,
  };
}

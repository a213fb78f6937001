// A cookbook run's config file: the recipe's module and its chz arguments, the bot's own settings included.
import { readFileSync } from "node:fs";
import path from "node:path";
import { RlError } from "../../errors.ts";
import { writeRunFile } from "../write-run-file.ts";

export interface RecipeRunFile {
  /** The recipe's module under tinker_cookbook.recipes, as discovery names it ("math_rl.train"). */
  recipe: string;
  /** `python -m` runs this module. */
  module: string;
  /** chz arguments: the channel's values, the locked ones and the bot's (log_path, behavior_if_log_dir_exists, WandB names). */
  args: Record<string, unknown>;
}

export const recipeModule = (recipe: string) => `tinker_cookbook.recipes.${recipe}`;

export function writeRecipeRunFile(dir: string, runId: string, run: RecipeRunFile, secrets: readonly string[]): string {
  return writeRunFile(path.join(dir, `run_${runId}.json`), `${JSON.stringify(run, null, 2)}\n`, secrets);
}

export function readRecipeRunFile(file: string): RecipeRunFile {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as RecipeRunFile;
    if (typeof parsed.module !== "string" || typeof parsed.args !== "object" || parsed.args === null)
      throw new Error("it has no module or args");
    return parsed;
  } catch (err) {
    throw new RlError(
      "PROCESS_FAILED",
      `The run's config file ${file} cannot be read (${(err as Error).message}); start a new run with /rl start.`,
      { cause: err },
    );
  }
}

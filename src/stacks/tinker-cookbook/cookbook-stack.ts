// tinker-cookbook recipes: one process per run, `python -m tinker_cookbook.recipes.<recipe> key=value ...`, its
// progress in the log folder the bot gives it (metrics.jsonl, checkpoints.jsonl).
import path from "node:path";
import type { RunRow } from "../../../db/runs.ts";
import type { Config } from "../../config.ts";
import type { LockedFields } from "../../locked-fields.ts";
import { childEnv } from "../../process/child-env.ts";
import { logPathOf, runFolderOf } from "../log-path.ts";
import { newestWrite } from "../newest-write.ts";
import type { TrainingStack } from "../training-stack.ts";
import { chzArgv } from "./chz-argv.ts";
import { readRecipeCheckpoints, readRecipeProgress } from "./read-recipe-progress.ts";
import { readRolloutSummaries } from "./read-rollout-summaries.ts";
import { readRecipeRunFile, recipeModule, writeRecipeRunFile } from "./recipe-run-file.ts";

export interface CookbookStackDeps {
  config: Config;
  locked: LockedFields;
  processEnv?: NodeJS.ProcessEnv;
  /** How long the recipe's process must stay alive to count as started when it writes no config.json sooner. */
  settleMs: number;
}

/** Fields the bot sets for every run: never a channel's to change. */
export const BOT_SET_RECIPE_FIELDS: Readonly<Record<string, string>> = {
  log_path: "the run's own folder in the data folder",
  behavior_if_log_dir_exists: "resume (never ask: a prompt would hang the process)",
  wandb_project: "WANDB_PROJECT",
  wandb_name: "{recipe}-{run id}",
};

/** The folder a cookbook run logs to (its log_path): metrics, checkpoints and config of that run only. */
export const recipeLogDir = (config: Config, runId: string) => runFolderOf(config.dataDir, runId);

/**
 * A recipe trains one step per batch: max_steps when set, else the dataset's batches (n_batches, or the bundled
 * miniature's demo_n_batches).
 */
function recipeSteps(values: Readonly<Record<string, unknown>>): number | undefined {
  for (const field of ["max_steps", "n_batches", "demo_n_batches"]) {
    const value = values[field];
    if (typeof value === "number") return value;
  }
  return undefined;
}

export function createCookbookStack(deps: CookbookStackDeps): TrainingStack {
  const { config } = deps;
  return {
    id: "tinker-cookbook",
    title: "tinker-cookbook recipes",
    unitName: "recipe",
    components: [
      {
        name: "trainer",
        title: "recipe",
        // The recipe writes config.json into its log_path once it has read its arguments and set up its logging.
        ready: { kind: "written", runFile: "config.json", settleMs: deps.settleMs },
        help: {
          what: "The Python that runs recipes",
          settings: ["RL_PYTHON"],
          provider: `Install tinker-cookbook into that Python (pip install -e . in a tinker-cookbook checkout) and set RL_TRAINING_ROOT to the checkout (now ${config.trainingRoot})`,
        },
      },
    ],
    main: "trainer",
    forkField: "load_checkpoint_path",
    stopOrder: ["trainer"],
    prepare(runId, recipe, values) {
      const wandbName = `${recipe}-${runId}`;
      const args: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== "") args[k] = v;
      Object.assign(args, structuredClone(deps.locked.recipe), {
        log_path: recipeLogDir(config, runId),
        behavior_if_log_dir_exists: "resume",
        wandb_project: config.wandb.project,
        wandb_name: wandbName,
      });
      const configPath = writeRecipeRunFile(
        config.runConfigsDir,
        runId,
        { recipe, module: recipeModule(recipe), args },
        config.secrets,
      );
      return {
        configPath,
        totalSteps: recipeSteps(args),
        wandbProject: config.wandb.project,
        wandbGroup: wandbName,
        wandbRunName: wandbName,
      };
    },
    stepsOf: recipeSteps,
    async plan(run: RunRow, component: string) {
      const file = readRecipeRunFile(run.configPath ?? "");
      return {
        component,
        command: config.python,
        args: ["-m", file.module, ...chzArgv(file.args)],
        cwd: config.trainingRoot,
        env: childEnv(deps.processEnv ?? process.env, config.trainingRoot, {
          TINKER_API_KEY: config.keys.tinker,
          WANDB_API_KEY: config.keys.wandb,
          // The recipe's wandb.init names the run but gives no id: these make every attempt of a resumed run log to
          // the one WandB run (created by the first attempt, resumed by the next), as wandb.init reads them.
          WANDB_RUN_ID: run.id,
          WANDB_RESUME: "allow",
        }),
        logPath: logPathOf(config.logsDir, run.id, component),
      };
    },
    readProgress: (run) => readRecipeProgress(recipeLogDir(config, run.id), run.totalSteps),
    readCheckpoints: (run) => readRecipeCheckpoints(recipeLogDir(config, run.id)),
    lastWrite: (run) =>
      newestWrite([
        logPathOf(config.logsDir, run.id, "trainer"),
        path.join(recipeLogDir(config, run.id), "metrics.jsonl"),
        path.join(recipeLogDir(config, run.id), "checkpoints.jsonl"),
      ]),
    readSamples: (run, query) => readRolloutSummaries(recipeLogDir(config, run.id), query),
    canResume: true,
    resumeNote: "a recipe run continues from the last checkpoints.jsonl record with a state_path",
  };
}

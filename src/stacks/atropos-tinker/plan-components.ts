// How each of an Atropos run's three components is started (command, arguments, environment, log file): local and Slurm alike.
import type { RunRow } from "../../../db/runs.ts";
import type { Config } from "../../config.ts";
import type { EnvironmentCatalog } from "../../environments/resolution/catalog.ts";
import type { CommandHelp } from "../../process/check-spawn-plan.ts";
import { childEnv } from "../../process/child-env.ts";
import { logPathOf } from "../log-path.ts";
import type { SpawnPlan } from "../../process/supervised-process.ts";

/** What each component's command is, the settings that change it and the package that provides it. */
export function commandHelpFor(config: Config, component: string): CommandHelp {
  const viaPython = (command: string[]) => (command[0] === config.python ? ["RL_PYTHON"] : []);
  if (component === "api") {
    return {
      what: "The trajectory API command",
      settings: ["RL_API_COMMAND", ...viaPython(config.apiCommand)],
      provider:
        "run-api comes with atroposlib: install it into the training Python (pip install atroposlib, or pip install -e . in an atropos checkout) and put that Python's bin folder on PATH",
    };
  }
  if (component === "trainer") {
    return {
      what: "The trainer command",
      settings: ["RL_TRAINER_COMMAND", ...viaPython(config.trainerCommand)],
      provider: `launch_training.py comes with tinker-atropos: set RL_TRAINING_ROOT to a tinker-atropos checkout (now ${config.trainingRoot}) and run pip install -e . there`,
    };
  }
  return {
    what: "The Python that runs environments",
    settings: ["RL_PYTHON"],
    provider: "Install Python with atroposlib (pip install atroposlib) and point RL_PYTHON at it",
  };
}

export interface ComponentPlannerDeps {
  config: Config;
  catalog: EnvironmentCatalog;
  apiPort: number;
  processEnv?: NodeJS.ProcessEnv;
}

export function createComponentPlanner(deps: ComponentPlannerDeps) {
  const { config } = deps;
  return async function planFor(run: RunRow, component: string): Promise<SpawnPlan> {
    const base = { cwd: config.trainingRoot, logPath: logPathOf(config.logsDir, run.id, component), component };
    const keys = { WANDB_API_KEY: config.keys.wandb };
    const processEnv = deps.processEnv ?? process.env;
    if (component === "api") {
      const [command, ...args] = config.apiCommand;
      return {
        ...base,
        command: command!,
        args: [...args, "--host", "127.0.0.1", "--port", String(deps.apiPort)],
        env: childEnv(processEnv, config.trainingRoot, {}),
      };
    }
    if (component === "trainer") {
      const [command, ...args] = config.trainerCommand;
      return {
        ...base,
        command: command!,
        args: [...args, "--config", run.configPath!],
        env: childEnv(processEnv, config.trainingRoot, { ...keys, TINKER_API_KEY: config.keys.tinker }),
      };
    }
    const info = await deps.catalog.get(run.environment);
    return {
      ...base,
      command: config.python,
      args: [info.filePath, "serve", "--config", run.configPath!],
      env: childEnv(processEnv, config.trainingRoot, keys),
    };
  };
}

export type ComponentPlanner = ReturnType<typeof createComponentPlanner>;

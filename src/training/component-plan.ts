// How each of a run's three components is started (command, arguments, environment, log file): local and Slurm alike.
import path from "node:path";
import type { Component } from "../../db/run-processes.ts";
import type { RunRow } from "../../db/runs.ts";
import type { Config } from "../config.ts";
import type { EnvironmentCatalog } from "../environments/catalog.ts";
import { childEnv } from "./child-env.ts";
import type { SpawnPlan } from "./local-supervisor.ts";

export function logPathOf(config: Config, runId: string, component: Component): string {
  return path.join(config.logsDir, `${component}_${runId}.log`);
}

export interface ComponentPlannerDeps {
  config: Config;
  catalog: EnvironmentCatalog;
  apiPort: number;
  processEnv?: NodeJS.ProcessEnv;
}

export function createComponentPlanner(deps: ComponentPlannerDeps) {
  const { config } = deps;
  return async function planFor(run: RunRow, component: Component): Promise<SpawnPlan> {
    const base = { cwd: config.trainingRoot, logPath: logPathOf(config, run.id, component), component };
    const keys = { WANDB_API_KEY: config.keys.wandb };
    const processEnv = deps.processEnv ?? process.env;
    if (component === "api") {
      const [command, ...args] = config.apiCommand;
      return { ...base, command: command!, args: [...args, "--host", "127.0.0.1", "--port", String(deps.apiPort)], env: childEnv(processEnv, config.trainingRoot, {}) };
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
    return { ...base, command: config.python, args: [info.filePath, "serve", "--config", run.configPath!], env: childEnv(processEnv, config.trainingRoot, keys) };
  };
}

export type ComponentPlanner = ReturnType<typeof createComponentPlanner>;

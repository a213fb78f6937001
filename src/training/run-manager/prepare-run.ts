// A new run's id, written run config and names; the run itself is created by the caller.
import { randomBytes } from "node:crypto";
import type { ConfigValues } from "../../../db/channels.ts";
import type { RunPatch, RunsRepo } from "../../../db/runs.ts";
import type { Config } from "../../config.ts";
import type { LockedFields } from "../../locked-fields.ts";
import { buildRunConfig, runNames, writeRunConfig } from "../run-config.ts";

export interface RunPreparerDeps {
  config: Config;
  runs: RunsRepo;
  locked: LockedFields;
}

export type PrepareRun = (environment: string, values: ConfigValues) => { id: string; patch: RunPatch };

export function createRunPreparer(deps: RunPreparerDeps): PrepareRun {
  const { config, runs } = deps;

  function newRunId(): string {
    for (;;) {
      const id = randomBytes(4).toString("hex");
      if (!runs.get(id)) return id;
    }
  }

  return function prepare(environment, values) {
    const id = newRunId();
    const names = runNames(environment, id, config.wandb.project);
    const runConfig = buildRunConfig({
      runId: id,
      environment,
      values,
      locked: deps.locked,
      wandbProject: config.wandb.project,
    });
    const configPath = writeRunConfig(config.runConfigsDir, id, runConfig, config.secrets);
    const totalSteps = typeof runConfig.env.total_steps === "number" ? runConfig.env.total_steps : undefined;
    return { id, patch: { configPath, totalSteps, ...names } };
  };
}

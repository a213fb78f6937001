// Atropos environments trained by tinker-atropos: a trajectory API, the trainer and the environment, in that order.
import path from "node:path";
import type { Config } from "../../config.ts";
import { readApiStatus } from "../api-status.ts";
import type { EnvironmentCatalog } from "../../environments/resolution/catalog.ts";
import type { LockedFields } from "../../locked-fields.ts";
import { readTrainerProgress } from "../../metrics/trainer-progress.ts";
import { logPathOf, runFolderOf } from "../log-path.ts";
import { newestWrite } from "../newest-write.ts";
import type { StackComponent, TrainerSettings, TrainingStack } from "../training-stack.ts";
import { checkGroupSizeChange } from "./check-group-size.ts";
import { commandHelpFor, createComponentPlanner } from "./plan-components.ts";
import { GROUPS_FILE, readScoredGroups } from "./read-scored-groups.ts";
import { readTrainerCheckpoints } from "./read-trainer-checkpoints.ts";
import { buildRunConfig, runNames, stackAddresses, writeRunConfig } from "./run-config.ts";
import { TRAINER_PREFIX, trainerFields } from "./trainer-fields.ts";

export interface AtroposStackDeps {
  config: Config;
  locked: LockedFields;
  catalog: EnvironmentCatalog;
  processEnv?: NodeJS.ProcessEnv;
  /** How long an environment must stay alive to count as ready when it shows no traffic yet. */
  envSettleMs: number;
}

export function createAtroposStack(deps: AtroposStackDeps): TrainingStack {
  const { config } = deps;
  const addresses = stackAddresses(deps.locked);
  const plan = createComponentPlanner({
    config,
    catalog: deps.catalog,
    apiPort: addresses.apiPort,
    processEnv: deps.processEnv,
  });
  const components: StackComponent[] = [
    {
      name: "api",
      title: "trajectory API",
      port: addresses.apiPort,
      ready: { kind: "http", url: `${addresses.apiUrl}/` },
      help: commandHelpFor(config, "api"),
    },
    {
      name: "trainer",
      title: "trainer",
      port: addresses.trainerPort,
      ready: { kind: "http", url: `${addresses.trainerUrl}/health` },
      help: commandHelpFor(config, "trainer"),
    },
    {
      name: "env",
      title: "environment",
      // The environment is ready once it sends data, or has stayed alive through a short settle period.
      ready: { kind: "traffic", statusUrl: `${addresses.apiUrl}/status`, settleMs: deps.envSettleMs },
      mayFinishFirst: true,
      help: commandHelpFor(config, "env"),
    },
  ];
  // tinker-atropos's TinkerConfig as the latest scan read it (a scan when there is none yet), or the bundled table.
  const trainer: TrainerSettings = {
    prefix: TRAINER_PREFIX,
    fields: async () =>
      trainerFields(deps.locked, (deps.catalog.latest() ?? (await deps.catalog.list())).trainerFields),
  };

  return {
    id: "atropos-tinker",
    title: "Atropos environments with tinker-atropos",
    unitName: "environment",
    components,
    main: "trainer",
    // Environment first (it feeds the API), trajectory API last (the trainer pulls from it until stopped).
    stopOrder: ["env", "trainer", "api"],
    prepare(runId, environment, values) {
      const names = runNames(environment, runId, config.wandb.project);
      const runConfig = buildRunConfig({
        runId,
        environment,
        values,
        locked: deps.locked,
        wandbProject: config.wandb.project,
        groupsPath: path.join(runFolderOf(config.dataDir, runId), GROUPS_FILE),
      });
      const configPath = writeRunConfig(config.runConfigsDir, runId, runConfig, config.secrets);
      const totalSteps = typeof runConfig.env.total_steps === "number" ? runConfig.env.total_steps : undefined;
      return { configPath, totalSteps, ...names };
    },
    // tinker-atropos's trainer runs the environment's total_steps.
    stepsOf: (values) => (typeof values.total_steps === "number" ? values.total_steps : undefined),
    // atroposlib refuses to start an environment whose group_size is over the batch size the trainer registers.
    checkCombination: checkGroupSizeChange,
    trainer,
    plan,
    readProgress: (run) => readTrainerProgress(logPathOf(config.logsDir, run.id, "trainer")),
    readCheckpoints: (run) => readTrainerCheckpoints(logPathOf(config.logsDir, run.id, "trainer")),
    lastWrite: (run) => newestWrite([logPathOf(config.logsDir, run.id, "trainer")]),
    readSamples: (run, query) =>
      readScoredGroups(runFolderOf(config.dataDir, run.id), run.configPath, query, config.isDemoStack),
    canResume: false,
    resumeNote: "tinker-atropos's trainer always starts at step 0",
    stepErrorPattern: "Error in step",
    apiStatus: () => readApiStatus(`${addresses.apiUrl}/status`),
  };
}

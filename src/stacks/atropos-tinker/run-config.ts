// Writes a run's YAML in the trainer's layout (env / openai / tinker / slurm / testing): locked fields on top.
import path from "node:path";
import type { LockedFields } from "../../locked-fields.ts";
import { writeRunFile } from "../write-run-file.ts";
import { stringifyRunYaml } from "./stringify-run-yaml.ts";
import { TRAINER_PREFIX } from "./trainer-fields.ts";

/** The server type tinker-atropos's environments must use for the trainer's inference server. */
export const TINKER_SERVER_TYPE = "sglang";

export interface RunConfigInput {
  runId: string;
  environment: string;
  /** The channel's changed values for the environment's fields, and the trainer's as tinker.x. */
  values: Record<string, unknown>;
  locked: LockedFields;
  wandbProject: string;
  /** Where the environment writes its scored groups (data_path_to_save_groups): the run's samples. */
  groupsPath?: string;
}

export interface RunConfig {
  env: Record<string, unknown>;
  openai: Array<Record<string, unknown>>;
  tinker: Record<string, unknown>;
  slurm: boolean;
  testing: boolean;
}

export interface RunNames {
  wandbProject: string;
  wandbGroup: string;
  wandbRunName: string;
}

export function runNames(environment: string, runId: string, wandbProject: string): RunNames {
  const name = `${environment}-${runId}`;
  return { wandbProject, wandbGroup: name, wandbRunName: name };
}

/**
 * The WandB names a run of `environment` is written with, by the field /rl config shows them under (the run id
 * as a placeholder): the same runNames buildRunConfig writes, so what is shown is what is written.
 */
export function shownRunNames(environment: string, wandbProject: string): Record<string, string> {
  const names = runNames(environment, "{run id}", wandbProject);
  return {
    wandb_name: names.wandbRunName,
    [`${TRAINER_PREFIX}wandb_project`]: names.wandbProject,
    [`${TRAINER_PREFIX}wandb_group`]: names.wandbGroup,
    [`${TRAINER_PREFIX}wandb_run_name`]: names.wandbRunName,
  };
}

/** A channel's values split into the run YAML's sections: the environment's (env:) and the trainer's (tinker:). */
function splitValues(values: Record<string, unknown>): {
  env: Record<string, unknown>;
  trainer: Record<string, unknown>;
} {
  const env: Record<string, unknown> = {};
  const trainer: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === "") continue;
    if (k.startsWith(TRAINER_PREFIX)) trainer[k.slice(TRAINER_PREFIX.length)] = v;
    else env[k] = v;
  }
  return { env, trainer };
}

/** The env: fields a run YAML gets from a channel's values and the locked fields (both the trainer and the environment read them). */
export function writtenEnvValues(values: Record<string, unknown>, locked: LockedFields): Record<string, unknown> {
  return { ...splitValues(values).env, ...locked.env };
}

export function buildRunConfig(input: RunConfigInput): RunConfig {
  const names = runNames(input.environment, input.runId, input.wandbProject);
  const { trainer } = splitValues(input.values);
  const env = writtenEnvValues(input.values, input.locked);
  // The environment's own WandB runs share the trainer's group and say which run they belong to.
  env.wandb_name ??= names.wandbRunName;
  // The groups carry the conversation only with include_messages: without it /rl samples has token ids, no text.
  if (input.groupsPath) env.include_messages ??= true;
  // The bot's: the run's samples are read from there, whatever a channel or the locked fields say.
  if (input.groupsPath) env.data_path_to_save_groups = input.groupsPath;
  return {
    env,
    // tinker-atropos's README: its environments talk to the trainer's inference server as sglang.
    openai: structuredClone(input.locked.openai).map((server) => ({
      ...server,
      server_type: server.server_type ?? TINKER_SERVER_TYPE,
    })),
    tinker: {
      ...trainer,
      ...structuredClone(input.locked.tinker),
      wandb_project: names.wandbProject,
      wandb_group: names.wandbGroup,
      wandb_run_name: names.wandbRunName,
    },
    slurm: input.locked.slurm,
    testing: input.locked.testing,
  };
}

/** Serialise and write; refuses if any secret value would end up in the file. */
export function writeRunConfig(dir: string, runId: string, config: RunConfig, secrets: readonly string[]): string {
  const text = `# rl-chatops run ${runId}: written by the bot; locked fields come from the locked fields file.\n${stringifyRunYaml(config)}`;
  return writeRunFile(path.join(dir, `run_${runId}.yaml`), text, secrets);
}

export function portOf(url: unknown, fallback: number): number {
  if (typeof url !== "string") return fallback;
  try {
    const u = new URL(url);
    return u.port ? Number(u.port) : fallback;
  } catch {
    return fallback;
  }
}

/** The trajectory API's and the trainer's inference server's addresses, from the locked fields. */
export function stackAddresses(locked: LockedFields): {
  apiUrl: string;
  apiPort: number;
  trainerUrl: string;
  trainerPort: number;
} {
  const apiRaw =
    typeof locked.env.rollout_server_url === "string" ? locked.env.rollout_server_url : "http://localhost:8000";
  const base = locked.openai[0]?.base_url;
  const trainerRaw = typeof base === "string" ? base : "http://localhost:8001/v1";
  const apiPort = portOf(apiRaw, 8000);
  const trainerPort = portOf(trainerRaw, 8001);
  const host = (raw: string) => {
    try {
      const h = new URL(raw).hostname;
      return h === "localhost" || h === "0.0.0.0" ? "127.0.0.1" : h;
    } catch {
      return "127.0.0.1";
    }
  };
  return {
    apiUrl: `http://${host(apiRaw)}:${apiPort}`,
    apiPort,
    trainerUrl: `http://${host(trainerRaw)}:${trainerPort}`,
    trainerPort,
  };
}

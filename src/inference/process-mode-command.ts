// What one model's child gets: the environment's process-mode command line, a config naming where its key comes from, and an environment carrying the key.
import { writeFileSync } from "node:fs";
import { childEnv } from "../process/child-env.ts";

export interface ProcessModeOptions {
  python: string;
  envFile: string;
  steps: number;
  groupSize: number;
  outputFile: string;
  baseUrl: string;
  model: string;
  /** The YAML from writeKeyFromEnvironmentConfig, when a key is sent. */
  configFile?: string;
}

/**
 * atroposlib sends the server config's api_key as it is (the environment's config_init usually says "x"); only an
 * api_key of None makes the OpenAI client read OPENAI_API_KEY. So the child gets `api_key: null` in a --config YAML
 * (the key itself is in neither that file nor the command line), which also overrides config_init's value.
 */
export function writeKeyFromEnvironmentConfig(file: string): void {
  writeFileSync(
    file,
    "# The key is not in this file: api_key null makes the OpenAI client read OPENAI_API_KEY from the environment.\n" +
      "openai:\n  api_key: null\n",
    { mode: 0o600 },
  );
}

/** `python ENV.py process ...`: no key here, since any local user can read a command line from /proc. */
export function buildProcessArgv(o: ProcessModeOptions): { command: string; args: string[] } {
  return {
    command: o.python,
    args: [
      o.envFile,
      "process",
      "--env.total_steps",
      String(o.steps),
      "--env.group_size",
      String(o.groupSize),
      "--env.use_wandb",
      "false",
      "--env.data_path_to_save_groups",
      o.outputFile,
      "--openai.base_url",
      o.baseUrl,
      "--openai.model_name",
      o.model,
      ...(o.configFile === undefined ? [] : ["--config", o.configFile]),
    ],
  };
}

/** The bot's environment minus its secrets, with OPENAI_API_KEY set to the key, or removed when none is sent. */
export function buildProcessEnv(
  base: NodeJS.ProcessEnv,
  trainingRoot: string,
  apiKey: string | undefined,
): Record<string, string> {
  const env = childEnv(base, trainingRoot, { OPENAI_API_KEY: apiKey });
  // An OPENAI_API_KEY inherited from the bot's own environment must not reach a local endpoint either.
  if (!apiKey) delete env.OPENAI_API_KEY;
  return env;
}

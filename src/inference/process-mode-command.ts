// What one model's child gets: the environment's process-mode command line, and an environment carrying the key.
import { childEnv } from "../process/child-env.ts";

export interface ProcessModeOptions {
  python: string;
  envFile: string;
  steps: number;
  groupSize: number;
  outputFile: string;
  baseUrl: string;
  model: string;
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

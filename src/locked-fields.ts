// The infrastructure settings no channel may change: read from the locked fields file, or the seed's values.
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { RlError } from "./errors.ts";
import * as z from "zod/mini";
import "./zod-english.ts";

const lockedFieldsSchema = z.object({
  env: z._default(z.record(z.string(), z.unknown()), {}),
  openai: z._default(z.array(z.record(z.string(), z.unknown())), []),
  tinker: z._default(z.record(z.string(), z.unknown()), {}),
  /** tinker-cookbook: recipe fields no channel may change, with their values. */
  recipe: z._default(z.record(z.string(), z.unknown()), {}),
  /** A stack manifest's fields no channel may change, with their values. */
  stack: z._default(z.record(z.string(), z.unknown()), {}),
  slurm: z._default(z.boolean(), false),
  testing: z._default(z.boolean(), false),
});

export type LockedFields = z.output<typeof lockedFieldsSchema>;

/** The values the seed tool locks, tuned for the real tinker-atropos stack. */
export const SEED_LOCKED_FIELDS: LockedFields = {
  env: {
    tokenizer_name: "Qwen/Qwen3-8B",
    rollout_server_url: "http://localhost:8000",
    use_wandb: true,
    max_token_length: 8192,
    max_num_workers: 2048,
    worker_timeout: 3600,
    total_steps: 2500,
    steps_per_eval: 25,
    max_batches_offpolicy: 3,
    inference_weight: 1.0,
    eval_limit_ratio: 0.1,
  },
  openai: [
    {
      model_name: "Qwen/Qwen3-8B",
      base_url: "http://localhost:8001/v1",
      api_key: "x",
      server_type: "sglang",
      num_requests_for_eval: 256,
      timeout: 3600,
    },
  ],
  tinker: {
    lora_rank: 32,
    learning_rate: 0.00004,
    max_token_trainer_length: 9000,
    checkpoint_dir: "./temp/",
    save_checkpoint_interval: 25,
  },
  recipe: {},
  stack: {},
  slurm: false,
  testing: false,
};

/** Load the locked fields file (same layout as a run config), or the seed's values when none is configured. */
export function loadLockedFields(filePath: string | undefined): LockedFields {
  if (!filePath) return structuredClone(SEED_LOCKED_FIELDS);
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(filePath, "utf8"));
  } catch (err) {
    throw new RlError(
      "CONFIG",
      `Cannot read the locked fields file ${filePath}: ${(err as Error).message}. Fix RL_LOCKED_FIELDS.`,
      {
        cause: err,
      },
    );
  }
  const result = lockedFieldsSchema.safeParse(parsed ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new RlError(
      "CONFIG",
      `The locked fields file ${filePath} is malformed at ${issue?.path.join(".") || "top level"}: ${issue?.message}. Fix RL_LOCKED_FIELDS.`,
    );
  }
  return result.data;
}

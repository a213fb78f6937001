// BASE_ENV_CONFIG_FIELDS: atroposlib's BaseEnvConfig as REFERENCE.md section 2 lists it.
import { describe, expect, it } from "vitest";
import { BASE_ENV_CONFIG_FIELDS } from "../../src/environments/resolution/base-env-config.ts";
import { parseAnnotation } from "../../src/environments/python/parse-annotation.ts";

describe("BASE_ENV_CONFIG_FIELDS", () => {
  const byName = new Map(BASE_ENV_CONFIG_FIELDS.map((field) => [field.name, field]));

  it("lists the 29 fields once each, in BaseEnvConfig's order", () => {
    expect(BASE_ENV_CONFIG_FIELDS.map((field) => field.name)).toEqual([
      "group_size",
      "max_num_workers",
      "max_eval_workers",
      "max_num_workers_per_node",
      "steps_per_eval",
      "max_token_length",
      "eval_handling",
      "eval_limit_ratio",
      "inference_weight",
      "batch_size",
      "max_batches_offpolicy",
      "tokenizer_name",
      "use_wandb",
      "rollout_server_url",
      "total_steps",
      "wandb_name",
      "num_rollouts_to_keep",
      "num_rollouts_per_group_for_logging",
      "ensure_scores_are_not_same",
      "data_path_to_save_groups",
      "data_dir_to_save_evals",
      "min_items_sent_before_logging",
      "include_messages",
      "min_batch_allocation",
      "worker_timeout",
      "thinking_mode",
      "reasoning_effort",
      "max_reasoning_tokens",
      "custom_thinking_prompt",
    ]);
  });

  it("has the reference defaults", () => {
    expect(Object.fromEntries(BASE_ENV_CONFIG_FIELDS.map((field) => [field.name, field.default]))).toMatchObject({
      group_size: 4,
      max_num_workers: -1,
      max_eval_workers: 16,
      eval_handling: "STOP_TRAIN",
      eval_limit_ratio: 0.5,
      tokenizer_name: "NousResearch/DeepHermes-3-Llama-3-3B-Preview",
      use_wandb: true,
      rollout_server_url: "http://localhost:8000",
      total_steps: 1000,
      wandb_name: null,
      worker_timeout: 600,
      thinking_mode: false,
      max_reasoning_tokens: null,
    });
    expect(byName.get("max_reasoning_tokens")).toMatchObject({ min: 1024, max: 32000 });
  });

  it("gives each field a description and a FieldType that matches its Python type", () => {
    for (const field of BASE_ENV_CONFIG_FIELDS) {
      expect(field.description.length, field.name).toBeGreaterThan(10);
      if (field.name === "eval_handling") continue;
      expect(parseAnnotation(field.type), field.name).toEqual(field.fieldType);
    }
    expect(byName.get("eval_handling")?.fieldType).toEqual({
      kind: "enum",
      values: ["STOP_TRAIN", "LIMIT_TRAIN", "NONE"],
    });
  });
});

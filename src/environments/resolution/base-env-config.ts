// The fields every Atropos environment inherits from atroposlib's BaseEnvConfig, written down so nothing is imported.
import type { ConfigField, FieldType } from "../types.ts";

/** A BaseEnvConfig field before the locked fields file is applied. */
export type BaseEnvConfigField = Omit<ConfigField, "locked" | "lockedValue">;

/** Members of atroposlib's EvalHandlingEnum; their values equal their names. */
export const EVAL_HANDLING_VALUES: readonly string[] = ["STOP_TRAIN", "LIMIT_TRAIN", "NONE"];

const INT: FieldType = { kind: "int" };
const FLOAT: FieldType = { kind: "float" };
const BOOL: FieldType = { kind: "bool" };
const STR: FieldType = { kind: "str" };
const optional = (inner: FieldType): FieldType => ({ kind: "optional", inner });

function field(
  name: string,
  type: string,
  fieldType: FieldType,
  defaultValue: unknown,
  description: string,
  bounds: { min?: number; max?: number } = {},
): BaseEnvConfigField {
  return { name, type, fieldType, default: defaultValue, description, ...bounds };
}

export const BASE_ENV_CONFIG_FIELDS: readonly BaseEnvConfigField[] = [
  field("group_size", "int", INT, 4, "How many completions are sampled and scored together for one prompt"),
  field(
    "max_num_workers",
    "int",
    INT,
    -1,
    "Maximum concurrent rollout workers; -1 derives it from max_num_workers_per_node",
  ),
  field("max_eval_workers", "int", INT, 16, "Maximum concurrent workers during evaluation"),
  field("max_num_workers_per_node", "int", INT, 8, "Maximum concurrent rollout workers per inference server"),
  field("steps_per_eval", "int", INT, 100, "Training steps between evaluations"),
  field("max_token_length", "int", INT, 2048, "Maximum token length of a generation"),
  field(
    "eval_handling",
    "EvalHandlingEnum",
    { kind: "enum", values: [...EVAL_HANDLING_VALUES] },
    "STOP_TRAIN",
    "What happens to training while an evaluation runs: stop it, limit it, or nothing",
  ),
  field(
    "eval_limit_ratio",
    "float",
    FLOAT,
    0.5,
    "Share of training workers kept during evaluation when eval_handling is LIMIT_TRAIN",
  ),
  field("inference_weight", "float", FLOAT, 1.0, "Weight of this environment's inference; -1 ignores it"),
  field("batch_size", "int", INT, -1, "Training batch size; -1 lets the trainer set it through run-api"),
  field("max_batches_offpolicy", "int", INT, 3, "Maximum batches queued ahead of the trainer"),
  field(
    "tokenizer_name",
    "str",
    STR,
    "NousResearch/DeepHermes-3-Llama-3-3B-Preview",
    "Hugging Face tokenizer used to tokenize rollouts",
  ),
  field("use_wandb", "bool", BOOL, true, "Whether the environment logs to Weights & Biases"),
  field("rollout_server_url", "str", STR, "http://localhost:8000", "URL of the run-api trajectory server"),
  field("total_steps", "int", INT, 1000, "Number of steps to run"),
  field(
    "wandb_name",
    "str | None",
    optional(STR),
    null,
    "Name the environment's runs are grouped under in Weights & Biases",
  ),
  field("num_rollouts_to_keep", "int", INT, 32, "Rollouts shown in Weights & Biases tables"),
  field("num_rollouts_per_group_for_logging", "int", INT, 1, "Rollouts kept per group for logging; -1 keeps all"),
  field("ensure_scores_are_not_same", "bool", BOOL, true, "Drop groups whose completions all scored the same"),
  field(
    "data_path_to_save_groups",
    "Optional[str]",
    optional(STR),
    null,
    "JSONL file the scored groups are written to, when set",
  ),
  field(
    "data_dir_to_save_evals",
    "Optional[str]",
    optional(STR),
    null,
    "Folder evaluation results are written to, when set",
  ),
  field(
    "min_items_sent_before_logging",
    "int",
    INT,
    2,
    "Items sent before metrics are logged; 0 or less logs every time",
  ),
  field("include_messages", "bool", BOOL, false, "Send the chat messages to the trainer along with the tokens"),
  field(
    "min_batch_allocation",
    "Optional[float]",
    optional(FLOAT),
    null,
    "Minimum share (0.0-1.0) of each batch reserved for this environment",
  ),
  field("worker_timeout", "float", FLOAT, 600, "Seconds before a rollout task times out; -1 means no timeout"),
  field("thinking_mode", "bool", BOOL, false, "Let the model think in <think></think> tags before answering"),
  field(
    "reasoning_effort",
    "Optional[str]",
    optional(STR),
    null,
    "Reasoning effort requested from the model, when set",
  ),
  field("max_reasoning_tokens", "Optional[int]", optional(INT), null, "Token budget for reasoning, when set", {
    min: 1024,
    max: 32000,
  }),
  field(
    "custom_thinking_prompt",
    "Optional[str]",
    optional(STR),
    null,
    "Replaces the default thinking prompt, when set",
  ),
];

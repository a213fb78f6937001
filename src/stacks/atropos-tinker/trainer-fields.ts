// The trainer's own settings (tinker-atropos's TinkerConfig, the run YAML's `tinker:` section) as config fields.
import type { ConfigField, FieldType } from "../../environments/types.ts";
import type { LockedFields } from "../../locked-fields.ts";

/** Trainer fields are named with their section, so they never meet an environment field of the same name. */
export const TRAINER_PREFIX = "tinker.";

/** Names the bot sets for every run (so WandB finds the run): never a channel's to change. */
export const BOT_SET_TRAINER_FIELDS: ReadonlySet<string> = new Set(["wandb_project", "wandb_group", "wandb_run_name"]);

const INT: FieldType = { kind: "int" };
const FLOAT: FieldType = { kind: "float" };
const STR: FieldType = { kind: "str" };

type TrainerField = Pick<
  ConfigField,
  "name" | "type" | "fieldType" | "default" | "description" | "min" | "max" | "minExclusive"
> & { defaultExpr?: string };

// TinkerConfig as tinker_atropos/config.py defines it (names, types, defaults); the descriptions are ours.
const TINKER_CONFIG_FIELDS: readonly TrainerField[] = [
  {
    name: "lora_rank",
    type: "int",
    fieldType: INT,
    default: 32,
    description: "Rank of the LoRA adapter the trainer trains",
    min: 1,
  },
  {
    name: "learning_rate",
    type: "float",
    fieldType: FLOAT,
    default: 4e-5,
    description: "Optimizer learning rate",
    min: 0,
    minExclusive: true,
  },
  {
    name: "max_token_trainer_length",
    type: "int",
    fieldType: INT,
    default: 2048,
    description: "Longest sequence, in tokens, the trainer trains on",
    min: 1,
  },
  {
    name: "checkpoint_dir",
    type: "str",
    fieldType: STR,
    default: "./temp/",
    description: "Folder the trainer writes checkpoints to",
  },
  {
    name: "save_checkpoint_interval",
    type: "int",
    fieldType: INT,
    default: 0,
    description: "Save a checkpoint every this many steps; 0 saves none along the way",
    min: 0,
  },
  {
    name: "wandb_project",
    type: "str",
    fieldType: STR,
    default: "atropos-tinker",
    description: "WandB project of the trainer's run (set by the bot: WANDB_PROJECT)",
  },
  {
    name: "wandb_group",
    type: "Optional[str]",
    fieldType: { kind: "optional", inner: STR },
    default: null,
    description: "WandB group of the run (set by the bot: {environment}-{run id})",
  },
  {
    name: "wandb_run_name",
    type: "str",
    fieldType: STR,
    default: "atropos-tinker-run",
    description: "WandB run name; the trainer's run is {wandb_run_name}-trainer-{suffix} (set by the bot)",
  },
  {
    name: "wandb_run_suffix",
    type: "str",
    fieldType: STR,
    default: undefined,
    defaultExpr: "4 random characters",
    description: "Suffix of the trainer's WandB run name",
  },
  {
    name: "tool_call_parser",
    type: "str",
    fieldType: STR,
    default: "hermes",
    description: "How the trainer's inference server reads tool calls from completions",
  },
];

const typeOfValue = (value: unknown): Pick<ConfigField, "type" | "fieldType"> =>
  typeof value === "number"
    ? Number.isInteger(value)
      ? { type: "int", fieldType: INT }
      : { type: "float", fieldType: FLOAT }
    : typeof value === "boolean"
      ? { type: "bool", fieldType: { kind: "bool" } }
      : typeof value === "string"
        ? { type: "str", fieldType: STR }
        : { type: "Any", fieldType: { kind: "any" } };

/**
 * The `tinker:` fields as shown and set: a field the locked fields file sets is locked to its value, the names the
 * bot sets per run are locked, the rest are the team's to change per channel. Keys only the locked file knows
 * (a trainer of the same shape with more settings) are shown locked too.
 */
export function trainerFields(
  locked: LockedFields,
  fromCheckout?: ReadonlyArray<Omit<ConfigField, "locked" | "lockedValue">>,
): ConfigField[] {
  // tinker-atropos's own TinkerConfig when the training root has it; the bundled table otherwise.
  const table = fromCheckout ?? TINKER_CONFIG_FIELDS;
  const known = new Set(table.map((f) => f.name));
  const fields: ConfigField[] = table.map((f) => {
    const isLocked = Object.hasOwn(locked.tinker, f.name) || BOT_SET_TRAINER_FIELDS.has(f.name);
    const lockedValue = Object.hasOwn(locked.tinker, f.name)
      ? locked.tinker[f.name]
      : BOT_SET_TRAINER_FIELDS.has(f.name)
        ? "set by the bot for each run"
        : undefined;
    return {
      ...structuredClone(f),
      name: `${TRAINER_PREFIX}${f.name}`,
      locked: isLocked,
      ...(isLocked ? { lockedValue } : {}),
    };
  });
  for (const [name, value] of Object.entries(locked.tinker)) {
    if (known.has(name)) continue;
    fields.push({
      name: `${TRAINER_PREFIX}${name}`,
      ...typeOfValue(value),
      default: value,
      description: "Set by the locked fields file",
      locked: true,
      lockedValue: value,
    });
  }
  return fields;
}

// What a stack manifest may say: a trainer described as data (its entries, command, files, resume and fork), checked
// with zod so every refusal names the key and what it accepts.
import { z } from "zod";

/** The placeholders a manifest's strings may use, and what each stands for (docs/stack-manifest.md). */
export const PLACEHOLDERS = {
  python: "the Python of RL_PYTHON",
  entry: "the entry's file, absolute",
  entry_name: "the entry's name",
  overrides: "one argv element per changed or set field (only as a whole element of run.command)",
  run_dir: "the run's own folder in the data folder",
  run_id: "the run's id",
  attempt: "the run's attempt: 0, then 1 for its first resume",
  checkpoint: "the checkpoint's path (fork.set, resume.set)",
  step: "a step number (samples.path, resume.set)",
  port: "a free TCP port on 127.0.0.1, found when the run starts",
} as const;
export type Placeholder = keyof typeof PLACEHOLDERS;

/** The built-in readers of an entry's config fields. */
export const FIELD_READERS = ["yaml", "hydra", "dataclass", "pydantic", "chz"] as const;
/** How a changed field is written into the command line. */
export const OVERRIDE_FORMS = ["{key}={value}", "--{key}={value}", "--{key} {value}", "+{key}={value}"] as const;

const text = z.string().min(1, "must not be empty");
const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const keyPath = text.describe("a dotted key path into a record, e.g. reward.mean");
const fieldValues = z.record(text, scalar);

/** How an entry is named: its file's name without the extension, or its folder's (prime-rl's configs/<name>/rl.toml). */
export const ENTRY_NAMES = ["file", "folder"] as const;
/** How a field's name is written on the command line: as the config has it, or with dashes for underscores. */
export const KEY_CASES = ["as_written", "kebab"] as const;
const pythonName = z
  .string()
  .regex(
    /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/,
    "must be a dotted module path and class name, e.g. my_pkg.config.TrainConfig",
  );

const entries = z.strictObject({
  glob: text,
  fields: z.enum(FIELD_READERS),
  name: z.enum(ENTRY_NAMES).default("file"),
  /**
   * The Python classes an entry's fields are read from (dataclass, pydantic readers), by dotted name; the entry file's
   * values (TOML or YAML) are their defaults. Several classes share one namespace (HfArgumentParser's).
   */
  class: z.union([pythonName, z.array(pythonName).min(1, "must name at least one class")]).optional(),
  /** Folders of the training root the classes' modules are found in, in order, like PYTHONPATH (default: the root). */
  python_path: z.array(text).min(1, "must name at least one folder").optional(),
  /** Base classes from outside python_path known to declare no fields (prime-rl's pydantic_config.BaseConfig). */
  bases_without_fields: z.array(pythonName).optional(),
});

const run = z.strictObject({
  command: z.array(text).min(1, "must name at least the program"),
  override: z.enum(OVERRIDE_FORMS).default("{key}={value}"),
  /** kebab: each field's underscores are written as dashes (`--max-steps`, `--trainer.optim.lr`), as prime-rl asks. */
  key_case: z.enum(KEY_CASES).default("as_written"),
  set: fieldValues.default({}),
  env: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name"), z.string())
    .default({}),
  /** How long the process must stay alive to count as started (default 2 s). */
  ready_seconds: z.number().positive().max(600).optional(),
});

const progress = z.strictObject({
  metrics: text,
  /**
   * The metrics file is one JSON document, not JSON lines: its records are the list at this key path (TRL's
   * checkpoint-N/trainer_state.json: log_history). The file is read whole; a metrics path with `*` reads every match.
   */
  records: keyPath.optional(),
  step: keyPath,
  reward: keyPath.optional(),
  loss: keyPath.optional(),
  /** The policy's entropy and the completions' mean length per step, for the watchdog (docs/watchdog.md). */
  entropy: keyPath.optional(),
  length: keyPath.optional(),
  total_steps: text.optional(),
  /** The step number the first step's record carries: 1 (it counts steps done) or 0 (numbered from 0). */
  first_step: z.union([z.literal(0), z.literal(1)]).default(1),
});

const checkpoints = z.strictObject({
  glob: text,
  step: text,
  /** A file that must exist inside a checkpoint folder for it to count as whole (a half-written one is not offered). */
  complete_when: text.optional(),
  /**
   * A file holding the step of the newest whole checkpoint (verl's latest_checkpointed_iteration.txt, written after
   * the folder): a checkpoint with a later step, or any while the file is missing, is still being written.
   */
  latest: text.optional(),
});

const withSet = z.strictObject({
  set: fieldValues.refine((v) => Object.keys(v).length > 0, "must set at least one field"),
  /** Why or how, for people (shown where a resume is refused or confirmed). */
  note: text.optional(),
});

const samples = z.strictObject({
  path: text,
  prompt: keyPath,
  completion: keyPath,
  score: keyPath,
  group: keyPath.optional(),
});

export const manifestSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "must be lower-case letters, digits and dashes (at most 40), e.g. my-trainer"),
  title: text.optional(),
  /** What an entry is called for people: "config", "recipe" (default "entry"). */
  unit: z
    .string()
    .regex(/^[a-z][a-z ]{0,19}$/, "must be a lower-case word, e.g. config")
    .default("entry"),
  entries,
  run,
  progress,
  checkpoints: checkpoints.optional(),
  resume: withSet.optional(),
  fork: withSet.optional(),
  samples: samples.optional(),
});

export type StackManifest = z.output<typeof manifestSchema>;

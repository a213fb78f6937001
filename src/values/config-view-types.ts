// A channel's config for a unit as /rl config shows it, the shape the core and every stack read: each field with its
// default, current and locked value, and what a run uses in its place.

/** A value the run uses in place of the one the environment's config would have, and why. */
export interface ImposedValue {
  value: unknown;
  note: string;
}

export interface FieldView {
  name: string;
  type: string;
  default: unknown;
  /** Source text of a default only known when the environment starts; default is then null. */
  default_expr?: string;
  description: string;
  locked: boolean;
  current_value: unknown;
  locked_value?: unknown;
  changed: boolean;
  /** What the bot writes into every run for this field while it is not changed here (a WandB name). */
  run_value?: string;
  /** The value a run uses instead of current_value, when the trainer imposes another one (batch_size). */
  run_time?: ImposedValue;
}

export interface ConfigView {
  environment: string;
  file_path: string;
  configurable_fields: FieldView[];
  locked_fields: FieldView[];
  /** Where BaseEnvConfig's fields came from: atroposlib's envs/base.py, or "bundled" (the bot's copy). */
  base_config_source: string;
}

// The environment and config operations: list, select, show config, edit, reset, and the missing-keys check.
import type { ChannelKey } from "../db/channel-key.ts";
import type { ChannelsRepo, ConfigValues } from "../db/channels.ts";
import type { EnvironmentCatalog } from "./environments/resolution/catalog.ts";
import type { ConfigField, EnvironmentInfo, ScanWarning } from "./environments/types.ts";
import { RlError } from "./errors.ts";
import { nearestName } from "./environments/resolution/nearest-name.ts";
import { parseFieldValue } from "./values/parse-field-value.ts";
import type { LockedFields } from "./locked-fields.ts";
import { BOT_SET_TRAINER_FIELDS, TRAINER_PREFIX, trainerFields } from "./training/trainer-fields.ts";
import { quoteInput } from "./values/quote-input.ts";

export interface EnvironmentSummary {
  name: string;
  class_name: string;
  file_path: string;
  description: string;
  config_class: string;
  /** False when `python FILE serve` would not start it; reason says why. */
  runnable: boolean;
  reason?: string;
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
}

export interface ConfigView {
  environment: string;
  file_path: string;
  configurable_fields: FieldView[];
  locked_fields: FieldView[];
  /** Where BaseEnvConfig's fields came from: atroposlib's envs/base.py, or "bundled" (the bot's copy). */
  base_config_source: string;
}

export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface AppliedChanges {
  environment: string;
  values: ConfigValues;
  changes: FieldChange[];
}

export interface EnvironmentOpsDeps {
  catalog: EnvironmentCatalog;
  channels: ChannelsRepo;
  keys: { tinker?: string; wandb?: string };
  /** True when training runs on the bundled demo stack, which needs no Tinker key. */
  isDemoStack: boolean;
  /** The bot's redactor: a value it would change holds a secret. */
  redact: (text: string) => string;
  /** The locked fields file: its `tinker:` section locks the trainer's fields (named tinker.x), shown beside every environment's own. */
  locked?: LockedFields;
}

const toSummary = (e: EnvironmentInfo): EnvironmentSummary => ({
  name: e.name,
  class_name: e.className,
  file_path: e.filePath,
  description: e.description,
  config_class: e.configClass,
  runnable: e.runnable,
  ...(e.notRunnableReason !== undefined ? { reason: e.notRunnableReason } : {}),
});

function fieldView(field: ConfigField, values: ConfigValues): FieldView {
  const has = Object.hasOwn(values, field.name) && !field.locked;
  return {
    name: field.name,
    type: field.type,
    default: field.default ?? null,
    ...(field.defaultExpr !== undefined ? { default_expr: field.defaultExpr } : {}),
    description: field.description,
    locked: field.locked,
    current_value: field.locked ? field.lockedValue : has ? values[field.name] : (field.default ?? null),
    ...(field.locked ? { locked_value: field.lockedValue } : {}),
    changed: has,
  };
}

/** The sections of a run config that only the locked fields file sets (the trainer's `tinker:` has fields of its own). */
const INFRA_SECTIONS = new Set(["openai", "slurm", "testing"]);
/** A field name after normalising: letters (any script, as Python allows), digits and underscores. */
const FIELD_NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;
/** "section.rest", "section:rest", "section[rest", "section/rest": a nested key. */
const NESTED = /^([\p{L}_][\p{L}\p{N}_]*)[.:[/](.*)$/u;
/** Hyphens and dashes people (and autocorrect) type between words. */
const DASHES = /[\s\-\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]+/gu;

/**
 * Map what a person typed ("Group-Size", " env.group_size ", fullwidth letters) to a field name, refusing other
 * sections. NFKC folds compatibility forms onto plain letters, as Python does for identifiers; format characters
 * (zero-width, bidi controls) are invisible and dropped. Lookalikes from other scripts stay what they are, so a
 * Cyrillic "о" never reaches a Latin field: the name is simply unknown.
 */
export function normaliseFieldName(input: string): string {
  const name = input
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .trim()
    .toLowerCase()
    .replace(/\s*([.:[\]/])\s*/g, "$1")
    .replace(DASHES, "_");
  const nested = NESTED.exec(name);
  if (!nested) return name;
  const [, section, rest] = nested;
  if (section === "env") return normaliseFieldName(rest!);
  if (section === "tinker") return `${TRAINER_PREFIX}${normaliseFieldName(rest!)}`;
  if (INFRA_SECTIONS.has(section!)) {
    throw new RlError(
      "LOCKED_FIELD",
      `${quoteInput(input)} belongs to the ${section} section, which is infrastructure set by the locked fields file; only environment fields can be changed.`,
      { details: { section } },
    );
  }
  throw new RlError(
    "NOT_FOUND",
    `${quoteInput(input)} is not a config field: fields are plain names such as group_size (see /rl config); nested keys cannot be set.`,
  );
}

/** Names that can never be a config field: not identifier-shaped, or private/dunder (pydantic ignores those too). */
function isFieldShaped(name: string): boolean {
  return FIELD_NAME.test(name) && !name.startsWith("_");
}

export function createEnvironmentOps(deps: EnvironmentOpsDeps) {
  const { catalog, channels } = deps;

  const selected = async (key: ChannelKey): Promise<EnvironmentInfo> => {
    const name = channels.selectedEnvironment(key);
    if (!name)
      throw new RlError(
        "NO_ENVIRONMENT",
        "No environment is selected in this channel. Pick one with /rl select <name> (see /rl envs).",
      );
    return catalog.get(name).catch((err: unknown) => {
      throw new RlError(
        "NOT_FOUND",
        `This channel's environment "${name}" is no longer in the environments folder. Select another with /rl select <name>.`,
        {
          cause: err,
        },
      );
    });
  };

  // A path relative to the folder ("community/x/env.py", or "env.py:Class" when a file holds several) picks one
  // environment whatever its name, so two files that share a name are both reachable.
  const findEnvironment = async (input: string): Promise<EnvironmentInfo> => {
    if (!input.includes("/") && !/\.py(:|$)/.test(input)) return catalog.get(input);
    const relative = input.replace(/\\/g, "/").replace(/^\.\//, "");
    const { environments } = await catalog.list();
    const matches = environments.filter(
      (e) => e.relativePath === relative || `${e.relativePath}:${e.className}` === relative,
    );
    const [only] = matches;
    if (only && matches.length === 1) return only;
    if (matches.length > 1) {
      const choices = matches.map((e) => `${e.relativePath}:${e.className}`);
      throw new RlError(
        "NOT_FOUND",
        `${quoteInput(input)} holds ${matches.length} environments; select one of: ${choices.join(", ")}.`,
        { details: { available: choices } },
      );
    }
    return catalog.get(input);
  };

  /** An environment a run can start: its file's main block calls its cli() (training and /rl test both run `python FILE`). */
  const requireRunnable = (env: EnvironmentInfo): EnvironmentInfo => {
    if (env.runnable) return env;
    throw new RlError(
      "NOT_STARTABLE",
      `${env.name} cannot be started: ${env.notRunnableReason ?? "its file has no entry point for it"}. Add \`if __name__ == "__main__": ${env.className}.cli()\` to ${env.relativePath}, or select another environment (see /rl envs).`,
      {
        details: { environment: env.name, reason: env.notRunnableReason },
      },
    );
  };

  /** The channel's environment, refused when its file cannot start it. */
  const startable = async (key: ChannelKey): Promise<EnvironmentInfo> => requireRunnable(await selected(key));

  /** The trainer's fields: tinker-atropos's TinkerConfig as the scan read it, or the bundled table. */
  const scanned = async () => catalog.latest() ?? (await catalog.list());
  const trainerList = async (): Promise<ConfigField[]> =>
    deps.locked ? trainerFields(deps.locked, (await scanned()).trainerFields) : [];

  // A bare name is the environment's field when it has one, else the trainer's of that name ("learning_rate").
  const findField = (env: EnvironmentInfo, trainer: readonly ConfigField[], input: string): ConfigField => {
    const name = normaliseFieldName(input);
    const bare = name.startsWith(TRAINER_PREFIX) ? name.slice(TRAINER_PREFIX.length) : name;
    const matches = (f: ConfigField, wanted: string) => f.name.normalize("NFKC").toLowerCase() === wanted;
    const field = isFieldShaped(bare)
      ? name.startsWith(TRAINER_PREFIX)
        ? trainer.find((f) => matches(f, name))
        : (env.fields.find((f) => matches(f, name)) ?? trainer.find((f) => matches(f, `${TRAINER_PREFIX}${name}`)))
      : undefined;
    if (field) return field;
    const near = nearestName(
      name,
      [...env.fields, ...trainer].map((f) => f.name),
    );
    throw new RlError(
      "NOT_FOUND",
      `${env.name} has no config field ${quoteInput(input)}.${near ? ` Did you mean "${near}"?` : ""} See /rl config for the fields.`,
      { details: { suggestion: near } },
    );
  };

  /** One field's value from what a person typed: the field found by name, refused when locked or holding a secret, parsed into its type. */
  const parseFor = async (
    env: EnvironmentInfo,
    fieldName: string,
    raw: unknown,
  ): Promise<{ field: ConfigField; value: unknown }> => {
    const field = findField(env, await trainerList(), fieldName);
    if (field.locked) {
      const trainerField = field.name.startsWith(TRAINER_PREFIX) ? field.name.slice(TRAINER_PREFIX.length) : undefined;
      const message =
        trainerField && BOT_SET_TRAINER_FIELDS.has(trainerField)
          ? `${field.name} is set by the bot for each run (WandB finds the run by it) and cannot be changed.`
          : `${field.name} is locked to ${JSON.stringify(field.lockedValue)} by the infrastructure settings and cannot be changed.${trainerField ? ` The team can unlock it by removing ${trainerField} from the tinker: section of the locked fields file (RL_LOCKED_FIELDS).` : ""}`;
      throw new RlError("LOCKED_FIELD", message, { details: { field: field.name, locked_value: field.lockedValue } });
    }
    // A key typed as a value would be stored, sent to the environment and shown: refuse it before anything keeps it.
    if (typeof raw === "string" && deps.redact(raw) !== raw) {
      throw new RlError(
        "INVALID_VALUE",
        `That value for ${field.name} holds one of the bot's secrets (an API key or token), so it was not stored. Keys belong in the bot's environment, never in a config field.`,
        {
          details: { field: field.name },
        },
      );
    }
    return { field, value: parseFieldValue(raw, field) };
  };

  const view = async (env: EnvironmentInfo, values: ConfigValues): Promise<ConfigView> => {
    const fields = [...env.fields, ...(await trainerList())].map((f) => fieldView(f, values));
    // The result the lookup of `env` just used, not a scan of its own.
    const { baseConfigSource } = await scanned();
    return {
      environment: env.name,
      file_path: env.filePath,
      configurable_fields: fields.filter((f) => !f.locked),
      locked_fields: fields.filter((f) => f.locked),
      base_config_source: baseConfigSource ?? "bundled",
    };
  };

  return {
    selectedEnvironment: selected,
    startableEnvironment: startable,

    async listEnvironments(
      key?: ChannelKey,
    ): Promise<{ environments: EnvironmentSummary[]; selected?: string; warnings: ScanWarning[] }> {
      const result = await catalog.list();
      return {
        environments: result.environments.map(toSummary),
        selected: key ? channels.selectedEnvironment(key) : undefined,
        warnings: result.warnings,
      };
    },

    async selectEnvironment(key: ChannelKey, name: string) {
      const env = await findEnvironment(name.trim());
      channels.selectEnvironment(key, env.name);
      const config = await view(env, channels.configValues(key, env.name));
      return {
        environment: env.name,
        file_path: env.filePath,
        description: env.description,
        runnable: env.runnable,
        ...(env.notRunnableReason !== undefined ? { reason: env.notRunnableReason } : {}),
        configurable_fields: config.configurable_fields.length,
        locked_fields: config.locked_fields.length,
        changed: config.configurable_fields.filter((f) => f.changed).map((f) => f.name),
      };
    },

    /** The channel's environment and the values it has set (what /rl start would run); refused if it cannot start. */
    async channelValues(key: ChannelKey): Promise<{ environment: string; values: ConfigValues }> {
      const env = await startable(key);
      return { environment: env.name, values: channels.configValues(key, env.name) };
    },

    async getConfig(key: ChannelKey): Promise<ConfigView> {
      const env = await selected(key);
      return await view(env, channels.configValues(key, env.name));
    },

    async editConfig(key: ChannelKey, fieldName: string, raw: unknown) {
      const env = await selected(key);
      const { field, value } = await parseFor(env, fieldName, raw);
      const before = channels.configValues(key, env.name);
      const previous = Object.hasOwn(before, field.name) ? before[field.name] : (field.default ?? null);
      channels.setConfigValue(key, env.name, field.name, value);
      return { environment: env.name, field: field.name, value, previous };
    },

    /**
     * A run config's values with changes applied, each field found, checked and parsed exactly as /rl set does;
     * nothing is stored; refused if the environment cannot start. Used by rerun and sweep, whose values belong to the
     * runs, not to the channel.
     */
    async applyChanges(
      environment: string,
      base: ConfigValues,
      changes: ReadonlyArray<{ field: string; value: unknown }>,
    ): Promise<AppliedChanges> {
      const env = requireRunnable(
        await catalog.get(environment).catch((err: unknown) => {
          throw new RlError("NOT_FOUND", `The environment "${environment}" is no longer in the environments folder.`, {
            cause: err,
          });
        }),
      );
      const values: ConfigValues = { ...base };
      const diff: FieldChange[] = [];
      for (const change of changes) {
        const { field, value } = await parseFor(env, change.field, change.value);
        diff.push({
          field: field.name,
          from: Object.hasOwn(values, field.name) ? values[field.name] : (field.default ?? null),
          to: value,
        });
        values[field.name] = value;
      }
      return { environment: env.name, values, changes: diff };
    },

    async resetConfig(key: ChannelKey, fieldName?: string) {
      const env = await selected(key);
      const field = fieldName === undefined ? undefined : findField(env, await trainerList(), fieldName);
      if (field?.locked)
        throw new RlError("LOCKED_FIELD", `${field.name} is locked; it always has its infrastructure value.`);
      channels.resetConfig(key, env.name, field?.name);
      return {
        environment: env.name,
        reset: field ? [field.name] : ("all" as const),
        default: field ? (field.default ?? null) : undefined,
      };
    },

    missingKeys(): { missing: string[]; required: string[]; demo_stack: boolean } {
      const required = ["TINKER_API_KEY", "WANDB_API_KEY"];
      const present: Record<string, boolean> = { TINKER_API_KEY: !!deps.keys.tinker, WANDB_API_KEY: !!deps.keys.wandb };
      return { missing: required.filter((k) => !present[k]), required, demo_stack: deps.isDemoStack };
    },
  };
}

export type EnvironmentOps = ReturnType<typeof createEnvironmentOps>;

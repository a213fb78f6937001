// The environment and config operations: list, select, show config, edit, reset, and the missing-keys check.
import type { ChannelKey } from "../db/channel-key.ts";
import type { ChannelsRepo, ConfigValues } from "../db/channels.ts";
import type { EnvironmentCatalog } from "./environments/catalog.ts";
import type { ConfigField, EnvironmentInfo, ScanWarning } from "./environments/types.ts";
import { RlError } from "./errors.ts";
import { nearestName } from "./values/nearest-name.ts";
import { parseFieldValue } from "./values/parse-field-value.ts";

export interface EnvironmentSummary {
  name: string;
  class_name: string;
  file_path: string;
  description: string;
  config_class: string;
}

export interface FieldView {
  name: string;
  type: string;
  default: unknown;
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
}

export interface EnvironmentOpsDeps {
  catalog: EnvironmentCatalog;
  channels: ChannelsRepo;
  keys: { tinker?: string; wandb?: string };
  /** True when training runs on the bundled demo stack, which needs no Tinker key. */
  isDemoStack: boolean;
}

const toSummary = (e: EnvironmentInfo): EnvironmentSummary => ({
  name: e.name,
  class_name: e.className,
  file_path: e.filePath,
  description: e.description,
  config_class: e.configClass,
});

function fieldView(field: ConfigField, values: ConfigValues): FieldView {
  const has = Object.hasOwn(values, field.name) && !field.locked;
  return {
    name: field.name,
    type: field.type,
    default: field.default ?? null,
    description: field.description,
    locked: field.locked,
    current_value: field.locked ? field.lockedValue : has ? values[field.name] : (field.default ?? null),
    ...(field.locked ? { locked_value: field.lockedValue } : {}),
    changed: has,
  };
}

/** Map what a person typed ("Group-Size", "env.group_size") to a field name, refusing other sections. */
export function normaliseFieldName(input: string): string {
  const name = input.trim().toLowerCase().replace(/-/g, "_");
  const dotted = name.match(/^([a-z_]+)[.:](.+)$/);
  if (!dotted) return name;
  const [, section, rest] = dotted;
  if (section === "env") return normaliseFieldName(rest!);
  throw new RlError(
    "LOCKED_FIELD",
    `"${input}" belongs to the ${section} section, which is infrastructure set by the locked fields file; only environment fields can be changed.`,
  );
}

export function createEnvironmentOps(deps: EnvironmentOpsDeps) {
  const { catalog, channels } = deps;

  const selected = async (key: ChannelKey): Promise<EnvironmentInfo> => {
    const name = channels.selectedEnvironment(key);
    if (!name) throw new RlError("NO_ENVIRONMENT", "No environment is selected in this channel. Pick one with /rl select <name> (see /rl envs).");
    return catalog.get(name).catch((err: unknown) => {
      throw new RlError("NOT_FOUND", `This channel's environment "${name}" is no longer in the environments folder. Select another with /rl select <name>.`, {
        cause: err,
      });
    });
  };

  const findField = (env: EnvironmentInfo, input: string): ConfigField => {
    const name = normaliseFieldName(input);
    const field = env.fields.find((f) => f.name.toLowerCase() === name);
    if (field) return field;
    const near = nearestName(name, env.fields.map((f) => f.name));
    throw new RlError(
      "NOT_FOUND",
      `${env.name} has no config field "${input}".${near ? ` Did you mean "${near}"?` : ""} See /rl config for the fields.`,
      { details: { suggestion: near } },
    );
  };

  const view = (env: EnvironmentInfo, values: ConfigValues): ConfigView => {
    const fields = env.fields.map((f) => fieldView(f, values));
    return {
      environment: env.name,
      file_path: env.filePath,
      configurable_fields: fields.filter((f) => !f.locked),
      locked_fields: fields.filter((f) => f.locked),
    };
  };

  return {
    selectedEnvironment: selected,

    async listEnvironments(key?: ChannelKey): Promise<{ environments: EnvironmentSummary[]; selected?: string; warnings: ScanWarning[] }> {
      const result = await catalog.list();
      return {
        environments: result.environments.map(toSummary),
        selected: key ? channels.selectedEnvironment(key) : undefined,
        warnings: result.warnings,
      };
    },

    async selectEnvironment(key: ChannelKey, name: string) {
      const env = await catalog.get(name.trim());
      channels.selectEnvironment(key, env.name);
      const config = view(env, channels.configValues(key, env.name));
      return {
        environment: env.name,
        file_path: env.filePath,
        description: env.description,
        configurable_fields: config.configurable_fields.length,
        locked_fields: config.locked_fields.length,
        changed: config.configurable_fields.filter((f) => f.changed).map((f) => f.name),
      };
    },

    async getConfig(key: ChannelKey): Promise<ConfigView> {
      const env = await selected(key);
      return view(env, channels.configValues(key, env.name));
    },

    async editConfig(key: ChannelKey, fieldName: string, raw: unknown) {
      const env = await selected(key);
      const field = findField(env, fieldName);
      if (field.locked) {
        throw new RlError(
          "LOCKED_FIELD",
          `${field.name} is locked to ${JSON.stringify(field.lockedValue)} by the infrastructure settings and cannot be changed.`,
          { details: { field: field.name, locked_value: field.lockedValue } },
        );
      }
      const value = parseFieldValue(raw, field);
      const before = channels.configValues(key, env.name);
      const previous = Object.hasOwn(before, field.name) ? before[field.name] : (field.default ?? null);
      channels.setConfigValue(key, env.name, field.name, value);
      return { environment: env.name, field: field.name, value, previous };
    },

    async resetConfig(key: ChannelKey, fieldName?: string) {
      const env = await selected(key);
      const field = fieldName === undefined ? undefined : findField(env, fieldName);
      if (field?.locked) throw new RlError("LOCKED_FIELD", `${field.name} is locked; it always has its infrastructure value.`);
      channels.resetConfig(key, env.name, field?.name);
      return { environment: env.name, reset: field ? [field.name] : "all" as const, default: field ? (field.default ?? null) : undefined };
    },

    missingKeys(): { missing: string[]; required: string[]; demo_stack: boolean } {
      const required = ["TINKER_API_KEY", "WANDB_API_KEY"];
      const present: Record<string, boolean> = { TINKER_API_KEY: !!deps.keys.tinker, WANDB_API_KEY: !!deps.keys.wandb };
      return { missing: required.filter((k) => !present[k]), required, demo_stack: deps.isDemoStack };
    },
  };
}

export type EnvironmentOps = ReturnType<typeof createEnvironmentOps>;

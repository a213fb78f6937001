// The environment and config operations: list, select, show config, edit, reset, and the missing-keys check.
import type { ChannelKey } from "../db/channel-key.ts";
import type { ChannelsRepo, ConfigValues } from "../db/channels.ts";
import type { EnvironmentCatalog } from "./environments/resolution/catalog.ts";
import type { ConfigField, EnvironmentInfo, ScanWarning } from "./environments/types.ts";
import { RlError } from "./errors.ts";
import type { TrainingStack } from "./stacks/training-stack.ts";
import type { ConfigView } from "./values/config-view-types.ts";
import { createConfigView, type ConfigViewDeps } from "./environment-ops/config-view.ts";
import { createEnvironmentFinder, requireRunnable } from "./environment-ops/find-environment.ts";
import { findField } from "./environment-ops/find-field.ts";
import { requireMandatorySet } from "./environment-ops/require-mandatory.ts";
import { createFieldInputParser } from "./environment-ops/parse-field-input.ts";
import { createTrainerFieldList } from "./environment-ops/trainer-field-list.ts";

export type { ConfigView, FieldView } from "./values/config-view-types.ts";
export { normaliseFieldName } from "./environment-ops/find-field.ts";

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

export interface FieldChange {
  field: string;
  from: unknown;
  /** The source of `from` when it is a default only the environment computes (from is then null). */
  from_expr?: string;
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
  /** The bot's training stack: its trainer's fields, shown beside every environment's own, and its rule on combinations. */
  stack: Pick<TrainingStack, "trainer" | "checkCombination">;
  /** The WandB names the bot writes into every run of an environment, by field name, shown by /rl config. */
  runNamesOf?: (environment: string) => Record<string, string>;
  /** Values the trainer imposes at run time (batch_size), by field name, shown beside the values they replace. */
  imposedOf?: ConfigViewDeps["imposedOf"];
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

interface ApplyContext {
  catalog: EnvironmentCatalog;
  parseFor: ReturnType<typeof createFieldInputParser>;
  fromBefore(environment: string, before: ConfigValues, field: ConfigField): { value: unknown; expr?: string };
  checkCombination(env: EnvironmentInfo, values: ConfigValues, changed: readonly string[]): Promise<unknown>;
}

async function applyChanges(
  ctx: ApplyContext,
  environment: string,
  base: ConfigValues,
  changes: ReadonlyArray<{ field: string; value: unknown }>,
): Promise<AppliedChanges> {
  const env = requireRunnable(
    await ctx.catalog.get(environment).catch((err: unknown) => {
      throw new RlError("NOT_FOUND", `The environment "${environment}" is no longer in the environments folder.`, {
        cause: err,
      });
    }),
  );
  const values: ConfigValues = { ...base };
  const diff: FieldChange[] = [];
  for (const change of changes) {
    const { field, value } = await ctx.parseFor(env, change.field, change.value);
    const from = ctx.fromBefore(env.name, values, field);
    diff.push({
      field: field.name,
      from: from.value,
      ...(from.expr !== undefined ? { from_expr: from.expr } : {}),
      to: value,
    });
    values[field.name] = value;
  }
  await ctx.checkCombination(
    env,
    values,
    diff.map((c) => c.field),
  );
  return { environment: env.name, values, changes: diff };
}

export function createEnvironmentOps(deps: EnvironmentOpsDeps) {
  const { catalog, channels } = deps;
  const environments = createEnvironmentFinder({ catalog, channels });
  const { selected, startable } = environments;
  const { trainerList, scanned } = createTrainerFieldList({ catalog, trainer: deps.stack.trainer });
  const parseFor = createFieldInputParser({ trainerList, redact: deps.redact });
  const view = createConfigView({ trainerList, scanned, runNamesOf: deps.runNamesOf, imposedOf: deps.imposedOf });
  /** Values the stack cannot start a run with together are refused; a warning is returned when it only doubts them. */
  const checkCombination = async (env: EnvironmentInfo, values: ConfigValues, changed: readonly string[]) => {
    const verdict = await deps.stack.checkCombination?.(changed, () => view(env, values));
    if (verdict && "refusal" in verdict)
      throw new RlError("INVALID_VALUE", verdict.refusal, verdict.details ? { details: verdict.details } : {});
    return verdict?.warning;
  };
  /**
   * What a run gets for a field the channel has not changed: the bot's name for it, or the class's default, with
   * the default's source when only the environment computes it (never shown as none).
   */
  const unchangedValue = (
    environment: string,
    field: { name: string; default?: unknown; defaultExpr?: string },
  ): { value: unknown; expr?: string } => {
    const names = deps.runNamesOf?.(environment) ?? {};
    if (Object.hasOwn(names, field.name)) return { value: names[field.name] };
    return { value: field.default ?? null, ...(field.defaultExpr !== undefined ? { expr: field.defaultExpr } : {}) };
  };
  const fromBefore = (environment: string, before: ConfigValues, field: ConfigField) =>
    Object.hasOwn(before, field.name) ? { value: before[field.name] } : unchangedValue(environment, field);

  /** The channel's environment, refused when its file cannot start it or a field it must be given is unset. */
  const startableWithValues = async (key: ChannelKey, given: readonly string[] = []): Promise<EnvironmentInfo> => {
    const env = await startable(key);
    requireMandatorySet(await view(env, channels.configValues(key, env.name)), given);
    return env;
  };

  return {
    selectedEnvironment: selected,
    startableEnvironment: startableWithValues,

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
      const env = await environments.find(name.trim());
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

    /** Every field's value a run with these values would have: defaults, then the values, then locked fields. */
    async effectiveValues(environment: string, values: ConfigValues): Promise<Record<string, unknown>> {
      const env = await environments.find(environment);
      const config = await view(env, values);
      return Object.fromEntries(
        [...config.configurable_fields, ...config.locked_fields].map((f) => [f.name, f.current_value]),
      );
    },

    async getConfig(key: ChannelKey): Promise<ConfigView> {
      const env = await selected(key);
      return await view(env, channels.configValues(key, env.name));
    },

    async editConfig(key: ChannelKey, fieldName: string, raw: unknown) {
      const env = await selected(key);
      const { field, value } = await parseFor(env, fieldName, raw);
      const before = channels.configValues(key, env.name);
      const previous = fromBefore(env.name, before, field);
      const warning = await checkCombination(env, { ...before, [field.name]: value }, [field.name]);
      channels.setConfigValue(key, env.name, field.name, value);
      return {
        environment: env.name,
        field: field.name,
        value,
        previous: previous.value,
        ...(previous.expr !== undefined ? { previous_expr: previous.expr } : {}),
        ...(warning !== undefined ? { warning } : {}),
      };
    },

    /**
     * A run config's values with changes applied, each field found, checked and parsed exactly as /rl set does;
     * nothing is stored; refused if the environment cannot start. Used by rerun and sweep, whose values belong to the
     * runs, not to the channel.
     */
    applyChanges: (
      environment: string,
      base: ConfigValues,
      changes: ReadonlyArray<{ field: string; value: unknown }>,
    ) => applyChanges({ catalog, parseFor, fromBefore, checkCombination }, environment, base, changes),

    async resetConfig(key: ChannelKey, fieldName?: string) {
      const env = await selected(key);
      const field = fieldName === undefined ? undefined : findField(env, await trainerList(), fieldName);
      if (field?.locked)
        throw new RlError("LOCKED_FIELD", `${field.name} is locked; it always has its infrastructure value.`);
      channels.resetConfig(key, env.name, field?.name);
      const unchanged = field ? unchangedValue(env.name, field) : undefined;
      return {
        environment: env.name,
        reset: field ? [field.name] : ("all" as const),
        default: unchanged?.value,
        ...(unchanged?.expr !== undefined ? { default_expr: unchanged.expr } : {}),
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

// Builds a channel's config for an environment as /rl config shows it: every field with its default, current and locked value.
import type { ConfigValues } from "../../db/channels.ts";
import type { ConfigField, EnvironmentInfo } from "../environments/types.ts";
import type { ConfigView, FieldView, ImposedValue } from "../values/config-view-types.ts";
import type { TrainerFieldList } from "./trainer-field-list.ts";

function fieldView(
  field: ConfigField,
  values: ConfigValues,
  runValue: string | undefined,
  imposed: ImposedValue | undefined,
): FieldView {
  const has = Object.hasOwn(values, field.name) && !field.locked;
  const current = field.locked ? field.lockedValue : has ? values[field.name] : (field.default ?? null);
  return {
    name: field.name,
    type: field.type,
    default: field.default ?? null,
    ...(field.defaultExpr !== undefined ? { default_expr: field.defaultExpr } : {}),
    description: field.description,
    locked: field.locked,
    current_value: current,
    ...(field.locked ? { locked_value: field.lockedValue } : {}),
    changed: has,
    ...(runValue !== undefined && !has ? { run_value: runValue } : {}),
    ...(imposed !== undefined && imposed.value !== current ? { run_time: imposed } : {}),
  };
}

export interface ConfigViewDeps extends TrainerFieldList {
  /** The names the bot writes into every run of an environment, by field name (see shownRunNames). */
  runNamesOf?: (environment: string) => Record<string, string>;
  /** Values the trainer imposes at run time on a run with these channel values, by field name (batch_size). */
  imposedOf?: (values: ConfigValues) => Record<string, ImposedValue>;
}

export function createConfigView(deps: ConfigViewDeps) {
  return async function view(env: EnvironmentInfo, values: ConfigValues): Promise<ConfigView> {
    const names = deps.runNamesOf?.(env.name) ?? {};
    const imposed = deps.imposedOf?.(values) ?? {};
    const fields = [...env.fields, ...(await deps.trainerList())].map((f) =>
      fieldView(
        f,
        values,
        Object.hasOwn(names, f.name) ? names[f.name] : undefined,
        Object.hasOwn(imposed, f.name) ? imposed[f.name] : undefined,
      ),
    );
    // The result the lookup of `env` just used, not a scan of its own.
    const { baseConfigSource } = await deps.scanned();
    return {
      environment: env.name,
      file_path: env.filePath,
      configurable_fields: fields.filter((f) => !f.locked),
      locked_fields: fields.filter((f) => f.locked),
      base_config_source: baseConfigSource ?? "bundled",
    };
  };
}

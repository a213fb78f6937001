// Builds an environment's config fields: BaseEnvConfig's, then its config classes' own, then config_init() overrides and locks.
import { BASE_ENV_CONFIG_FIELDS, type BaseEnvConfigField } from "./base-env-config.ts";
import { applyFieldBounds } from "./apply-field-bounds.ts";
import { parseAnnotation } from "../python/parse-annotation.ts";
import type { ClassDecl, ConfigInitDecl, FieldDecl, PyValue } from "../python/python-file-summary.ts";
import { isAtroposName, type SummarizedFile, type SymbolResolver } from "./resolve-symbols.ts";
import type { ValueResolver } from "./resolve-values.ts";
import type { ConfigField, FieldType } from "../types.ts";

export interface ConfigFieldsRequest {
  /** Where `env_config_cls` was written and what it names; undefined means plain BaseEnvConfig. */
  configClass?: { file: SummarizedFile; path: string[] };
  /** The config_init() that applies and the file it is written in. */
  configInit?: { file: SummarizedFile; decl: ConfigInitDecl };
  lockedEnv: Record<string, unknown>;
  /** BaseEnvConfig's fields as read from atroposlib; the bundled table when absent. */
  baseFields?: readonly BaseEnvConfigField[];
}

export interface ConfigFieldsResult {
  fields: ConfigField[];
  /** Problems worth telling the user, e.g. a config class that is not in the folder. */
  problems: string[];
}

const MAX_DEPTH = 16;

function copyFieldType(type: FieldType): FieldType {
  switch (type.kind) {
    case "optional":
      return { kind: "optional", inner: copyFieldType(type.inner) };
    case "list":
      return { ...type, item: copyFieldType(type.item) };
    case "tuple":
      return { kind: "tuple", items: type.items.map(copyFieldType) };
    case "dict":
      return {
        kind: "dict",
        ...(type.key ? { key: copyFieldType(type.key) } : {}),
        ...(type.value ? { value: copyFieldType(type.value) } : {}),
      };
    case "enum":
      return { kind: "enum", values: [...type.values] };
    default:
      return { ...type };
  }
}

export function resolveConfigFields(
  symbols: SymbolResolver,
  values: ValueResolver,
  request: ConfigFieldsRequest,
): ConfigFieldsResult {
  const fields = new Map<string, ConfigField>();
  const problems: string[] = [];
  for (const base of request.baseFields ?? BASE_ENV_CONFIG_FIELDS) {
    // Cheaper than structuredClone for ~30 fields per environment, and still a copy a caller may change.
    fields.set(base.name, { ...base, fieldType: copyFieldType(base.fieldType), locked: false });
  }

  // Map insertion order keeps a redefined field where its ancestor put it, as pydantic does.
  const visited = new Set<ClassDecl>();
  function addClass(file: SummarizedFile, cls: ClassDecl, depth: number): void {
    if (visited.has(cls) || depth > MAX_DEPTH) return;
    visited.add(cls);
    for (const base of [...cls.bases].reverse()) {
      if (!base) continue;
      const found = symbols.resolve(file, base, cls.order);
      if (found.kind === "class") addClass(found.file, found.cls, depth + 1);
    }
    for (const decl of cls.fields) fields.set(decl.name, toConfigField(file, decl, fields.get(decl.name)));
  }

  function toConfigField(file: SummarizedFile, decl: FieldDecl, inherited: ConfigField | undefined): ConfigField {
    const field: ConfigField = {
      name: decl.name,
      type: decl.annotation,
      fieldType: parseAnnotation(decl.annotation, (name) => values.enumValues(file, name)),
      default: undefined,
      // A redefinition without a description still means the same setting; keep the ancestor's words.
      description: decl.description ?? inherited?.description ?? "",
      locked: false,
    };
    setDefault(field, file, decl.default);
    applyFieldBounds(field, decl);
    return field;
  }

  function setDefault(field: ConfigField, file: SummarizedFile, value: PyValue): void {
    field.default = values.toJs(file, value);
    delete field.defaultExpr;
    if (field.default !== undefined) return;
    // `env.get("x", 3)`, `cls.name`: known once the environment starts; its text says more than "unknown".
    if (value.kind === "expr") field.defaultExpr = value.text;
    else if (value.kind === "ref") field.defaultExpr = value.path.join(".");
  }

  const configClass = request.configClass;
  if (configClass) {
    const found = symbols.resolve(configClass.file, configClass.path);
    if (found.kind === "class") addClass(found.file, found.cls, 0);
    else if (!isAtroposName(found, "BaseEnvConfig")) {
      problems.push(
        `config class ${configClass.path.join(".")} is not defined in the scanned folder; only BaseEnvConfig fields are listed`,
      );
    }
  }

  if (request.configInit) {
    const { file, decl } = request.configInit;
    for (const override of decl.overrides) {
      const field = fields.get(override.name);
      if (field) setDefault(field, file, override.value);
    }
  }

  for (const field of fields.values()) {
    if (Object.hasOwn(request.lockedEnv, field.name)) {
      field.locked = true;
      field.lockedValue = request.lockedEnv[field.name];
    }
  }
  return { fields: [...fields.values()], problems };
}

// Decides an environment's config class as atroposlib's CLI does: the type of what config_init() builds.
import type { ClassDecl } from "../python/python-file-summary.ts";
import { isAtroposName, type SummarizedFile, type SymbolResolver } from "./resolve-symbols.ts";

export interface ClassRef {
  file: SummarizedFile;
  cls: ClassDecl;
}

export interface ConfigClassChoice {
  /** Where the class's name is written and the name; undefined means atroposlib's BaseEnvConfig. */
  source?: { file: SummarizedFile; path: string[] };
  /** The name shown to people. */
  name: string;
  /** Why the choice fell back, when it did. */
  problem?: string;
}

/** `lineage` is the environment class and its folder ancestors, nearest first (where class attributes come from). */
export function resolveConfigClass(symbols: SymbolResolver, lineage: readonly ClassRef[]): ConfigClassChoice {
  const initOwner = lineage.find((ref) => ref.cls.configInit);
  const declared = lineage.find((ref) => ref.cls.envConfigCls);
  const fromDeclared = (problem?: string): ConfigClassChoice => {
    const path = declared?.cls.envConfigCls;
    if (declared && path)
      return { source: { file: declared.file, path }, name: path.join("."), ...(problem ? { problem } : {}) };
    return {
      name: "BaseEnvConfig",
      ...(problem ? { problem: `${problem}; only BaseEnvConfig fields are listed` } : {}),
    };
  };
  // No config_init of the folder's own: atroposlib's builds cls.env_config_cls().
  if (!initOwner?.cls.configInit) return fromDeclared();
  const built = initOwner.cls.configInit.configClass;
  if (!built)
    return fromDeclared(declared ? undefined : "config_init() returns a config that cannot be followed statically");
  if (built.at(-1) === "env_config_cls") return fromDeclared();
  const found = symbols.resolve(initOwner.file, built);
  if (found.kind === "class") return { source: { file: initOwner.file, path: built }, name: built.join(".") };
  if (isAtroposName(found, "BaseEnvConfig")) return { name: "BaseEnvConfig" };
  const problem = `config_init() builds ${built.join(".")}, which is not defined in the scanned folder`;
  // When env_config_cls names the same class, the field resolver's warning about it says it all.
  const sameName = declared?.cls.envConfigCls?.join(".") === built.join(".");
  return fromDeclared(sameName ? undefined : declared ? `${problem}; its env_config_cls is used instead` : problem);
}

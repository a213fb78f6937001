// Turns summarized Python values into JS values, following names to module constants and Enum members.
import { EVAL_HANDLING_VALUES } from "./base-env-config.ts";
import type { ClassDecl, PyValue } from "../python/python-file-summary.ts";
import { isAtroposName, type SummarizedFile, type SymbolResolver } from "./resolve-symbols.ts";

type EnumValue = string | number | boolean;

export interface ValueResolver {
  /** Values of the Enum named `name` in `file`, or undefined when it is not a resolvable Enum. */
  enumValues(file: SummarizedFile, name: string): EnumValue[] | undefined;
  /** The JS value of `value` as seen from `file`; undefined when it cannot be known statically. */
  toJs(file: SummarizedFile, value: PyValue): unknown;
}

const ENUM_BASES = new Set(["Enum", "StrEnum", "IntEnum", "Flag", "IntFlag"]);
const MAX_DEPTH = 16;

export function createValueResolver(symbols: SymbolResolver): ValueResolver {
  function isEnumClass(file: SummarizedFile, cls: ClassDecl, depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    return cls.bases.some((base) => {
      if (!base) return false;
      const found = symbols.resolve(file, base, cls.order);
      if (found.kind === "external") return ENUM_BASES.has(found.qualified.split(".").at(-1) ?? "");
      if (found.kind === "class") return isEnumClass(found.file, found.cls, depth + 1);
      // `from enum import Enum` may be missing from a fragment; the name alone is unambiguous enough.
      return found.kind === "unresolved" && base.length === 1 && ENUM_BASES.has(base[0] ?? "");
    });
  }

  function membersOf(file: SummarizedFile, path: string[]): Map<string, EnumValue> | undefined {
    const found = symbols.resolve(file, path);
    if (isAtroposName(found, "EvalHandlingEnum")) return new Map(EVAL_HANDLING_VALUES.map((value) => [value, value]));
    if (found.kind !== "class" || !isEnumClass(found.file, found.cls, 0)) return undefined;
    const members = new Map<string, EnumValue>();
    for (const member of found.cls.members) {
      if (member.name.startsWith("_")) continue;
      const value = member.value;
      const plain = value.kind === "literal" ? value.value : undefined;
      // auto() and computed members would need the code to run: the Enum is then not resolvable.
      if (typeof plain !== "string" && typeof plain !== "number" && typeof plain !== "boolean") return undefined;
      members.set(member.name, plain);
    }
    return members.size > 0 ? members : undefined;
  }

  function toJs(file: SummarizedFile, value: PyValue): unknown {
    // Lists and dicts live in the cached summary; callers get their own copy to edit.
    if (value.kind === "literal") return structuredClone(value.value);
    if (value.kind !== "ref") return undefined;
    const owner = value.path.slice(0, -1);
    const member = value.path.at(-1) ?? "";
    if (owner.length > 0) {
      const members = membersOf(file, owner);
      if (members) return members.get(member);
    }
    // The resolver follows aliases itself, so a value it finds is a literal or unknown.
    const found = symbols.resolve(file, value.path);
    return found.kind === "value" && found.value.kind === "literal" ? found.value.value : undefined;
  }

  return {
    enumValues(file, name) {
      const members = membersOf(file, name.split("."));
      return members ? [...members.values()] : undefined;
    },
    toJs,
  };
}

// A chz config class's settable fields as argv names them: inherited fields, Literal aliases and nested chz classes resolved.
import { parseAnnotation } from "../python/parse-annotation.ts";
import type { ConfigField, FieldType } from "../types.ts";
import type { ChzFieldDecl } from "./cookbook-file-summary.ts";
import type { CookbookModules, LoadedFile, Resolved } from "./cookbook-modules.ts";

type ClassRef = Extract<Resolved, { kind: "class" }>;

export interface ChzFieldsResult {
  fields: ConfigField[];
  /** Why some fields are missing or only partly known, one sentence each. */
  problems: string[];
}

// Nested configs are a few levels deep; the bound stops a class that (indirectly) holds itself.
const MAX_NESTING = 6;
const MAX_ALIAS_DEPTH = 8;
// Bases that add no chz fields.
const PLAIN_BASES = new Set(["object", "ABC", "abc.ABC", "Protocol", "typing.Protocol", "Generic", "typing.Generic"]);
const ANY_ANNOTATIONS = new Set(["Any", "typing.Any", "object"]);

interface OwnedField {
  decl: ChzFieldDecl;
  file: LoadedFile;
}

/** The fields of `root`, nested chz classes flattened to `parent.child` names as chz's argv takes them. */
export async function readChzFields(modules: CookbookModules, root: ClassRef): Promise<ChzFieldsResult> {
  const result: ChzFieldsResult = { fields: [], problems: [] };
  const unknownTypes: string[] = [];
  await addClassFields(modules, root, "", [root.cls], result, unknownTypes);
  if (unknownTypes.length > 0) {
    result.problems.push(`types not understood, shown as any: ${unknownTypes.join(", ")}`);
  }
  return result;
}

async function addClassFields(
  modules: CookbookModules,
  ref: ClassRef,
  prefix: string,
  stack: readonly object[],
  result: ChzFieldsResult,
  unknownTypes: string[],
): Promise<void> {
  const owned = await collectFields(modules, ref, result, 0);
  for (const [logicalName, { decl, file }] of owned) {
    const name = prefix + logicalName;
    const nested = await nestedClassOf(modules, file, decl.annotation);
    const expanded = await expandAliases(modules, file, decl.annotation, 0);
    const fieldType = parseAnnotation(expanded);
    const field: ConfigField = {
      name,
      type: decl.annotation,
      fieldType,
      default: undefined,
      description: decl.description ?? "",
      locked: false,
    };
    await setDefault(modules, file, decl, field);
    result.fields.push(field);
    if (nested?.kind === "class") {
      if (stack.includes(nested.cls) || stack.length > MAX_NESTING) {
        result.problems.push(`${name}: nested config ${nested.cls.name} holds itself; its fields are not listed`);
      } else {
        await addClassFields(modules, nested, `${name}.`, [...stack, nested.cls], result, unknownTypes);
      }
    } else if (isAny(fieldType) && !ANY_ANNOTATIONS.has(decl.annotation)) {
      unknownTypes.push(`${name} (${decl.annotation})`);
    }
  }
}

function isAny(type: FieldType): boolean {
  return type.kind === "any" || (type.kind === "optional" && type.inner.kind === "any");
}

/** The class's chz fields by logical name in chz's order: bases' first (reversed MRO), a redefinition in place. */
async function collectFields(
  modules: CookbookModules,
  ref: ClassRef,
  result: ChzFieldsResult,
  depth: number,
): Promise<Map<string, OwnedField>> {
  const fields = new Map<string, OwnedField>();
  if (depth > MAX_NESTING) return fields;
  for (const base of [...ref.cls.bases].reverse()) {
    if (!base || PLAIN_BASES.has(base.join("."))) continue;
    const resolved = await modules.resolve(ref.file, base, ref.cls.order);
    if (resolved.kind === "class") {
      for (const [name, field] of await collectFields(modules, resolved, result, depth + 1)) fields.set(name, field);
    } else if (resolved.kind === "external" || resolved.kind === "unresolved") {
      const where = resolved.kind === "external" ? ` (${resolved.qualified}, outside the checkout)` : "";
      result.problems.push(`base class ${base.join(".")}${where} of ${ref.cls.name}: its fields are not listed`);
    }
  }
  // An undecorated subclass gets no fields of its own from chz.
  if (ref.cls.isChz) {
    for (const decl of ref.cls.fields) {
      const logical = decl.name.startsWith("X_") ? decl.name.slice(2) : decl.name;
      fields.set(logical, { decl, file: ref.file });
    }
  }
  return fields;
}

type Nested = ClassRef | undefined;

/** The chz class a field holds (`X`, `X | None`, `Optional[X]`), when its annotation names one. */
async function nestedClassOf(modules: CookbookModules, file: LoadedFile, annotation: string): Promise<Nested> {
  const text = annotation.replace(/^["']|["']$/g, "");
  const optional = /^(?:typing\.)?Optional\[(.+)\]$/.exec(text);
  const inner = optional?.[1] ?? text.replace(/^None\s*\|\s*|\s*\|\s*None$/g, "");
  if (!/^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*$/.test(inner) || SCALAR_NAMES.has(inner)) return undefined;
  const resolved = await modules.resolve(file, inner.split("."));
  return resolved.kind === "class" && resolved.cls.isChz ? resolved : undefined;
}

const SCALAR_NAMES = new Set(["int", "float", "str", "bool", "bytes", "Any", "object", "list", "dict", "None"]);

async function setDefault(
  modules: CookbookModules,
  file: LoadedFile,
  decl: ChzFieldDecl,
  field: ConfigField,
): Promise<void> {
  if (decl.factory !== undefined) {
    field.defaultExpr = decl.factory;
    return;
  }
  const value = decl.default;
  switch (value.kind) {
    case "literal":
      field.default = value.value;
      return;
    case "expr":
      field.defaultExpr = value.text;
      return;
    case "ref": {
      // A module constant of the checkout is as good as a literal.
      const literal = await readConstant(modules, file, value.path);
      if (literal !== undefined) field.default = literal.value;
      else field.defaultExpr = value.path.join(".");
      return;
    }
    default:
      return;
  }
}

/** A module constant of the checkout, or an Enum member's value (`TrainOnWhat.LAST_ASSISTANT_MESSAGE`). */
async function readConstant(
  modules: CookbookModules,
  file: LoadedFile,
  name: string[],
): Promise<{ value: unknown } | undefined> {
  const resolved = await modules.resolve(file, name);
  if (resolved.kind === "value" && resolved.value.kind === "literal") return { value: resolved.value.value };
  if (name.length < 2) return undefined;
  const owner = await modules.resolve(file, name.slice(0, -1));
  const member = owner.kind === "class" ? owner.cls.enumMembers?.find((m) => m.name === name.at(-1)) : undefined;
  return member ? { value: member.value } : undefined;
}

/** The annotation with each alias of the checkout it names (`cli_utils.LogdirBehavior`) replaced by what it stands for. */
async function expandAliases(modules: CookbookModules, file: LoadedFile, text: string, depth: number): Promise<string> {
  if (depth > MAX_ALIAS_DEPTH) return text;
  // Strings are kept whole (Literal values, forward references); dotted names are looked up.
  const tokens = text.split(/("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)/);
  const parts: string[] = [];
  for (const token of tokens) {
    if (!/^[A-Za-z_]/.test(token) || SCALAR_NAMES.has(token)) {
      parts.push(token);
      continue;
    }
    const resolved = await modules.resolve(file, token.split("."));
    if (resolved.kind === "alias") {
      parts.push(`(${await expandAliases(modules, resolved.file, resolved.text, depth + 1)})`);
    } else if (resolved.kind === "class" && resolved.cls.enumMembers) {
      // chz takes an Enum member by name or by value; the values are what the field holds.
      parts.push(`Literal[${resolved.cls.enumMembers.map((member) => JSON.stringify(member.value)).join(", ")}]`);
    } else parts.push(token);
  }
  return parts.join("");
}

// A config class's settable fields as argv names them: inherited fields, Literal aliases and nested config classes
// resolved. chz classes by default; pydantic models and dataclasses (a stack manifest's readers) by the same rules.
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

/** Which classes hold fields, and how their names are written. */
export interface ClassKind {
  /** The class declares fields of its own (its bases are followed either way). */
  owns: (cls: ClassRef["cls"]) => boolean;
  /** chz writes a field `X_name` as `name`. */
  stripXPrefix: boolean;
  /** Bases from outside the checkout that add no fields (pydantic.BaseModel): no warning for them. */
  rootBases: ReadonlySet<string>;
}

const isEnum = (cls: ClassRef["cls"]) => cls.bases.some((base) => base?.at(-1)?.endsWith("Enum"));

export const CLASS_KINDS = {
  chz: { owns: (cls) => cls.isChz, stripXPrefix: true, rootBases: new Set() },
  // A pydantic model is any class of the checkout that is not an Enum: its root base is BaseModel.
  pydantic: {
    owns: (cls) => !isEnum(cls),
    stripXPrefix: false,
    rootBases: new Set(["pydantic.BaseModel", "pydantic.main.BaseModel", "pydantic_settings.BaseSettings"]),
  },
  dataclass: { owns: (cls) => cls.isDataclass === true, stripXPrefix: false, rootBases: new Set() },
} satisfies Record<string, ClassKind>;

/** The fields of `root`, nested config classes flattened to `parent.child` names as chz's argv takes them. */
export async function readChzFields(
  modules: CookbookModules,
  root: ClassRef,
  kind: ClassKind = CLASS_KINDS.chz,
): Promise<ChzFieldsResult> {
  const result: ChzFieldsResult = { fields: [], problems: [] };
  const unknownTypes: string[] = [];
  await addClassFields(modules, root, "", [root.cls], { result, unknownTypes, kind });
  if (unknownTypes.length > 0) {
    result.problems.push(`types not understood, shown as any: ${unknownTypes.join(", ")}`);
  }
  return result;
}

interface Reading {
  result: ChzFieldsResult;
  unknownTypes: string[];
  kind: ClassKind;
}

async function addClassFields(
  modules: CookbookModules,
  ref: ClassRef,
  prefix: string,
  stack: readonly object[],
  reading: Reading,
): Promise<void> {
  const { result, unknownTypes } = reading;
  const owned = await collectFields(modules, ref, reading, 0);
  for (const [logicalName, { decl, file }] of owned) {
    const name = prefix + logicalName;
    const expanded = await expandAliases(modules, file, decl.annotation, 0);
    const nested =
      (await nestedClassOf(modules, file, decl.annotation, reading.kind)) ??
      (expanded === decl.annotation ? undefined : await nestedClassOf(modules, file, expanded, reading.kind));
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
        await addClassFields(modules, nested, `${name}.`, [...stack, nested.cls], reading);
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
  reading: Reading,
  depth: number,
): Promise<Map<string, OwnedField>> {
  const { result, kind } = reading;
  const fields = new Map<string, OwnedField>();
  if (depth > MAX_NESTING) return fields;
  for (const base of [...ref.cls.bases].reverse()) {
    if (!base || PLAIN_BASES.has(base.join("."))) continue;
    const resolved = await modules.resolve(ref.file, base, ref.cls.order);
    if (resolved.kind === "class") {
      for (const [name, field] of await collectFields(modules, resolved, reading, depth + 1)) fields.set(name, field);
    } else if (resolved.kind === "external" && kind.rootBases.has(resolved.qualified)) {
      continue;
    } else if (resolved.kind === "external" || resolved.kind === "unresolved") {
      const where = resolved.kind === "external" ? ` (${resolved.qualified}, outside the checkout)` : "";
      result.problems.push(`base class ${base.join(".")}${where} of ${ref.cls.name}: its fields are not listed`);
    }
  }
  // An undecorated subclass gets no fields of its own from chz (nor from dataclasses).
  if (kind.owns(ref.cls)) {
    for (const decl of ref.cls.fields) {
      const logical = kind.stripXPrefix && decl.name.startsWith("X_") ? decl.name.slice(2) : decl.name;
      fields.set(logical, { decl, file: ref.file });
    }
  }
  return fields;
}

type Nested = ClassRef | undefined;

/** The chz class a field holds (`X`, `X | None`, `Optional[X]`), when its annotation names one. */
async function nestedClassOf(
  modules: CookbookModules,
  file: LoadedFile,
  annotation: string,
  kind: ClassKind,
): Promise<Nested> {
  // An alias expands in parentheses; Annotated[X, ...] holds an X.
  let text = annotation.replace(/^["']|["']$/g, "").replace(/^\((.*)\)$/, "$1");
  const annotated = /^(?:typing\.)?Annotated\[([^,[\]]+(?:\[[^\]]*\])?),/.exec(text);
  if (annotated) text = annotated[1]!.trim();
  const optional = /^(?:typing\.)?Optional\[(.+)\]$/.exec(text);
  const inner = optional?.[1] ?? text.replace(/^None\s*\|\s*|\s*\|\s*None$/g, "");
  if (!/^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*$/.test(inner) || SCALAR_NAMES.has(inner)) return undefined;
  const resolved = await modules.resolve(file, inner.split("."));
  return resolved.kind === "class" && kind.owns(resolved.cls) ? resolved : undefined;
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
    case "expr": {
      // Path("outputs"): text to every parser that takes a path.
      const pathText = /^(?:pathlib\.)?Path\(\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\)$/.exec(value.text);
      if (pathText) field.default = pathText[1] ?? pathText[2];
      else field.defaultExpr = value.text;
      return;
    }
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

// Turns a Python type annotation, as written in an environment's config class, into a FieldType.
import type { FieldType } from "../types.ts";

/** Values of an Enum class named in an annotation, or undefined when it is not a resolvable Enum. */
export type EnumResolver = (name: string) => Array<string | number | boolean> | undefined;

type Token =
  | { kind: "name"; text: string }
  | { kind: "string"; text: string }
  | { kind: "number"; value: number }
  | { kind: "punct"; text: string };

type Ann =
  | { kind: "name"; name: string; args?: Ann[] }
  | { kind: "string"; value: string }
  | { kind: "number"; value: number }
  | { kind: "union"; options: Ann[] }
  | { kind: "list"; items: Ann[] };

const ANY: FieldType = { kind: "any" };

// pydantic's constrained aliases are common in configs and say exactly which scalar they hold.
const SCALARS: Record<string, FieldType> = {
  int: { kind: "int" },
  StrictInt: { kind: "int" },
  PositiveInt: { kind: "int" },
  NegativeInt: { kind: "int" },
  NonNegativeInt: { kind: "int" },
  NonPositiveInt: { kind: "int" },
  float: { kind: "float" },
  StrictFloat: { kind: "float" },
  PositiveFloat: { kind: "float" },
  NegativeFloat: { kind: "float" },
  NonNegativeFloat: { kind: "float" },
  NonPositiveFloat: { kind: "float" },
  bool: { kind: "bool" },
  StrictBool: { kind: "bool" },
  str: { kind: "str" },
  StrictStr: { kind: "str" },
  // pathlib.Path: pydantic and dataclass parsers take it as text.
  Path: { kind: "str" },
};

const LIST_NAMES = new Set(["List", "list", "Sequence"]);
// pydantic accepts a JSON array for these and drops repeated items.
const SET_NAMES = new Set(["Set", "set", "FrozenSet", "frozenset", "AbstractSet", "MutableSet"]);
const TUPLE_NAMES = new Set(["Tuple", "tuple"]);
const DICT_NAMES = new Set(["Dict", "dict", "Mapping", "MutableMapping"]);
const SAME_AS_FIRST_ARG = new Set(["Annotated", "Final", "ClassVar", "Required", "NotRequired"]);
// Forward references nest annotations inside strings; a bound keeps a hostile file from recursing forever.
const MAX_DEPTH = 8;
// Real annotations nest a few brackets deep; a hostile one must not exhaust the stack.
const MAX_NESTING = 64;

/** Parse an annotation; anything not understood becomes { kind: "any" } rather than an error. */
export function parseAnnotation(text: string, resolveEnum?: EnumResolver): FieldType {
  return parseAt(text, resolveEnum, 0);
}

function parseAt(text: string, resolveEnum: EnumResolver | undefined, depth: number): FieldType {
  if (depth > MAX_DEPTH) return ANY;
  const tokens = tokenize(text);
  if (!tokens) return ANY;
  const reader: Reader = { tokens, pos: 0, nesting: 0 };
  const ann = readUnion(reader);
  if (!ann || reader.pos !== tokens.length) return ANY;
  return toFieldType(ann, resolveEnum, depth);
}

function tokenize(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const space = /^(?:\s+|#[^\n]*|\\\r?\n)/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*/.exec(rest);
    const str = /^[rRuU]?("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/.exec(rest);
    if (str) {
      const quoted = str[1] ?? "";
      tokens.push({ kind: "string", text: quoted.slice(1, -1).replace(/\\(.)/g, "$1") });
      i += str[0].length;
    } else if (name) {
      tokens.push({ kind: "name", text: name[0].replace(/\s+/g, "") });
      i += name[0].length;
    } else {
      const num =
        /^-?\s*(?:0[xX][0-9a-fA-F_]+|\d[\d_]*(?:\.[\d_]*)?(?:[eE][+-]?\d+)?|\.\d[\d_]*(?:[eE][+-]?\d+)?)/.exec(rest);
      if (num) {
        const value = Number(num[0].replace(/[\s_]/g, ""));
        if (Number.isNaN(value)) return undefined;
        tokens.push({ kind: "number", value });
        i += num[0].length;
      } else {
        // Anything else (=, ., +, ...) is kept as a token: the parser refuses it unless Annotated metadata skips it.
        tokens.push({ kind: "punct", text: rest[0] ?? "" });
        i += 1;
      }
    }
  }
  return tokens;
}

interface Reader {
  tokens: Token[];
  pos: number;
  nesting: number;
}

function isPunct(reader: Reader, text: string): boolean {
  const token = reader.tokens[reader.pos];
  return token?.kind === "punct" && token.text === text;
}

function readUnion(reader: Reader): Ann | undefined {
  const first = readPrimary(reader);
  if (!first) return undefined;
  const options = [first];
  while (isPunct(reader, "|")) {
    reader.pos += 1;
    const next = readPrimary(reader);
    if (!next) return undefined;
    options.push(next);
  }
  return options.length === 1 ? first : { kind: "union", options };
}

function readSequence(reader: Reader, close: string): Ann[] | undefined {
  if (reader.nesting >= MAX_NESTING) return undefined;
  reader.nesting += 1;
  const items: Ann[] = [];
  while (!isPunct(reader, close)) {
    const item = readUnion(reader);
    if (!item) return undefined;
    items.push(item);
    if (isPunct(reader, ",")) reader.pos += 1;
    else if (!isPunct(reader, close)) return undefined;
  }
  reader.pos += 1;
  reader.nesting -= 1;
  return items;
}

function readPrimary(reader: Reader): Ann | undefined {
  const token = reader.tokens[reader.pos];
  if (!token) return undefined;
  reader.pos += 1;
  switch (token.kind) {
    case "string":
      return { kind: "string", value: token.text };
    case "number":
      return { kind: "number", value: token.value };
    case "name": {
      if (!isPunct(reader, "[")) return { kind: "name", name: token.text };
      reader.pos += 1;
      if (token.text.split(".").at(-1) === "Annotated") return readAnnotated(reader, token.text);
      const args = readSequence(reader, "]");
      return args ? { kind: "name", name: token.text, args } : undefined;
    }
    case "punct": {
      // `...` in Tuple[X, ...].
      if (token.text === "." && isPunct(reader, ".") && isPunct({ ...reader, pos: reader.pos + 1 }, ".")) {
        reader.pos += 2;
        return { kind: "name", name: "..." };
      }
      if (token.text === "[") {
        const items = readSequence(reader, "]");
        return items ? { kind: "list", items } : undefined;
      }
      if (token.text !== "(" || reader.nesting >= MAX_NESTING) return undefined;
      reader.nesting += 1;
      const inner = readUnion(reader);
      if (!inner || !isPunct(reader, ")")) return undefined;
      reader.pos += 1;
      reader.nesting -= 1;
      return inner;
    }
  }
}

// Annotated[T, Field(ge=1), ...]: only T is a type; the metadata is any expression, so skip it bracket-balanced.
function readAnnotated(reader: Reader, name: string): Ann | undefined {
  const first = readUnion(reader);
  if (!first) return undefined;
  let depth = 0;
  for (let token = reader.tokens[reader.pos]; token; token = reader.tokens[reader.pos]) {
    reader.pos += 1;
    if (token.kind !== "punct") continue;
    if (token.text === "[" || token.text === "(") depth += 1;
    else if (token.text === ")") depth -= 1;
    else if (token.text === "]" && depth-- === 0) return { kind: "name", name, args: [first] };
  }
  return undefined;
}

function isNone(ann: Ann): boolean {
  return ann.kind === "name" && !ann.args && (ann.name === "None" || ann.name.endsWith("NoneType"));
}

function unionType(options: Ann[], resolveEnum: EnumResolver | undefined, depth: number): FieldType {
  const rest = options.filter((option) => !isNone(option));
  const nullable = rest.length < options.length;
  const [only] = rest;
  const inner = rest.length === 1 && only ? toFieldType(only, resolveEnum, depth) : ANY;
  if (!nullable) return inner;
  return inner.kind === "optional" ? inner : { kind: "optional", inner };
}

function literalType(args: Ann[]): FieldType {
  const values: Array<string | number | boolean> = [];
  let nullable = false;
  for (const arg of args) {
    if (arg.kind === "string" || arg.kind === "number") values.push(arg.value);
    else if (arg.kind === "name" && (arg.name === "True" || arg.name === "False")) values.push(arg.name === "True");
    else if (isNone(arg)) nullable = true;
    else return ANY;
  }
  if (values.length === 0) return ANY;
  const type: FieldType = { kind: "enum", values };
  return nullable ? { kind: "optional", inner: type } : type;
}

const isEllipsis = (ann: Ann | undefined) => ann?.kind === "name" && ann.name === "...";

// Tuple[X, ...] is a list of X of any length; Tuple[A, B] holds exactly one A then one B; Tuple[()] is empty.
function tupleType(args: Ann[], resolveEnum: EnumResolver | undefined, depth: number): FieldType {
  const [first, second] = args;
  if (args.length === 2 && first && isEllipsis(second))
    return { kind: "list", item: toFieldType(first, resolveEnum, depth) };
  if (args.some(isEllipsis)) return ANY;
  return { kind: "tuple", items: args.map((arg) => toFieldType(arg, resolveEnum, depth)) };
}

function toFieldType(ann: Ann, resolveEnum: EnumResolver | undefined, depth: number): FieldType {
  switch (ann.kind) {
    case "string":
      return parseAt(ann.value, resolveEnum, depth + 1);
    case "union":
      return unionType(ann.options, resolveEnum, depth);
    case "number":
    case "list":
      return ANY;
    case "name":
      break;
  }
  // typing.Optional, t.List, pydantic.StrictInt: the module prefix does not change the meaning.
  const base = ann.name.split(".").at(-1) ?? ann.name;
  const args = ann.args;
  const [first] = args ?? [];
  if (!args) {
    const scalar = SCALARS[base];
    if (scalar) return scalar;
    if (LIST_NAMES.has(base) || TUPLE_NAMES.has(base)) return { kind: "list", item: ANY };
    if (SET_NAMES.has(base)) return { kind: "list", item: ANY, unique: true };
    if (DICT_NAMES.has(base)) return { kind: "dict" };
    const values = resolveEnum?.(ann.name);
    return values && values.length > 0 ? { kind: "enum", values } : ANY;
  }
  if (base === "Optional" && args.length === 1 && first)
    return unionType([first, { kind: "name", name: "None" }], resolveEnum, depth);
  if (base === "Union") return unionType(args, resolveEnum, depth);
  if (base === "Literal") return literalType(args);
  if (LIST_NAMES.has(base) && args.length === 1 && first)
    return { kind: "list", item: toFieldType(first, resolveEnum, depth) };
  if (SET_NAMES.has(base) && args.length === 1 && first)
    return { kind: "list", item: toFieldType(first, resolveEnum, depth), unique: true };
  if (TUPLE_NAMES.has(base)) return tupleType(args, resolveEnum, depth);
  if (DICT_NAMES.has(base)) {
    const [key, value] = args;
    if (args.length !== 2 || !key || !value) return { kind: "dict" };
    return { kind: "dict", key: toFieldType(key, resolveEnum, depth), value: toFieldType(value, resolveEnum, depth) };
  }
  if (SAME_AS_FIRST_ARG.has(base) && first) return toFieldType(first, resolveEnum, depth);
  return ANY;
}

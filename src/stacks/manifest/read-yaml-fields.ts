// An entry's config fields read from YAML, without running anything: every leaf key (nested as a.b) with its value as
// the default, its type from that value and its comment as the description. The hydra reader first composes the
// file's `defaults:` list the way Hydra does (group files merged at their package, `_self_` where it stands, last by
// default), so a verl-style config shows the fields its trainer reads.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isMap, isScalar, parseDocument, type Node, type Pair, type Tags } from "yaml";
import type { ConfigField, FieldType } from "../../environments/types.ts";

/** A field as read, before the stack marks what it locks. */
export type ReadField = Omit<ConfigField, "locked" | "lockedValue">;

export interface ReadEntry {
  fields: ReadField[];
  /** The file's leading comment, first line. */
  description: string;
  /** Files of the defaults list that could not be read, for a warning. */
  problems: string[];
}

/** Composition deeper than this is a loop, or a config no person wrote. */
const MAX_DEPTH = 16;

interface Leaf {
  value: unknown;
  description: string;
  /** Written as a float (`1.0`, `1e-6`): JavaScript's numbers cannot tell 1.0 from 1, Python's can. */
  float?: boolean;
}

const FLOAT_TEXT = /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?$|^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$/;

type Tree = Map<string, Leaf | Tree>;

export function typeOf(value: unknown): { type: string; fieldType: FieldType } {
  if (value === null || value === undefined)
    return { type: "null", fieldType: { kind: "optional", inner: { kind: "any" } } };
  if (typeof value === "boolean") return { type: "bool", fieldType: { kind: "bool" } };
  if (typeof value === "number")
    return Number.isInteger(value)
      ? { type: "int", fieldType: { kind: "int" } }
      : { type: "float", fieldType: { kind: "float" } };
  if (typeof value === "string") return { type: "str", fieldType: { kind: "str" } };
  if (Array.isArray(value)) return { type: "list", fieldType: { kind: "list", item: { kind: "any" } } };
  return { type: "dict", fieldType: { kind: "dict" } };
}

const commentOf = (...comments: Array<string | null | undefined>) =>
  comments
    .filter((c): c is string => typeof c === "string" && c.trim() !== "")
    .map((c) => c.trim().split("\n").at(-1)!.trim())
    .join(" ");

/** A YAML mapping node as a tree of leaves, comments kept; an empty mapping is a leaf (a dict field). */
function treeOf(node: Node | null | undefined): Tree {
  const tree: Tree = new Map();
  if (!isMap(node)) return tree;
  for (const pair of node.items as Array<Pair<Node, Node | null>>) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const value = pair.value;
    const description = commentOf(pair.key?.commentBefore, value?.comment);
    if (isMap(value) && value.items.length > 0) tree.set(key, treeOf(value));
    else {
      const json = value ? (value.toJSON() as unknown) : null;
      const source = isScalar(value) && typeof json === "number" ? (value.source ?? "") : "";
      const float = /[.eE]|inf|nan/i.test(source) && !/^[-+]?0x/.test(source) && FLOAT_TEXT.test(source);
      tree.set(key, { value: json, description, ...(float ? { float } : {}) });
    }
  }
  return tree;
}

function mergeInto(target: Tree, source: Tree): void {
  for (const [key, value] of source) {
    const existing = target.get(key);
    if (value instanceof Map && existing instanceof Map) mergeInto(existing, value);
    else target.set(key, value instanceof Map ? cloneTree(value) : value);
  }
}

const cloneTree = (tree: Tree): Tree =>
  new Map([...tree].map(([k, v]) => [k, v instanceof Map ? cloneTree(v) : v] as const));

/** The subtree at a dotted package path, made when missing. */
function subtreeAt(tree: Tree, pkg: string): Tree {
  let at = tree;
  for (const part of pkg.split(".").filter(Boolean)) {
    const next = at.get(part);
    if (next instanceof Map) at = next;
    else {
      const made: Tree = new Map();
      at.set(part, made);
      at = made;
    }
  }
  return at;
}

interface Composer {
  configDir: string;
  problems: string[];
  maxBytes: number;
}

// Python trainers read YAML with PyYAML (OmegaConf too): YAML 1.1 as its resolvers have it, which knows no `y`/`n`
// booleans and keeps dates as text (OmegaConf drops the timestamp resolver).
const PYYAML_BOOL: Record<string, RegExp> = {
  true: /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/,
  false: /^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/,
};
const pyyamlTags = (tags: Tags): Tags =>
  tags.flatMap((tag) => {
    if (typeof tag === "string" || tag.tag === "tag:yaml.org,2002:timestamp") return [];
    if (tag.tag !== "tag:yaml.org,2002:bool" || !("test" in tag) || !tag.test) return [tag];
    return [{ ...tag, test: PYYAML_BOOL[String(tag.test.test("true"))]! }];
  });

function readDocument(file: string, composer: Composer) {
  const size = statSync(file).size;
  if (size > composer.maxBytes) throw new Error(`larger than ${composer.maxBytes} bytes`);
  const doc = parseDocument(readFileSync(file, "utf8"), { uniqueKeys: false, version: "1.1", customTags: pyyamlTags });
  // A comment at the top of the file describes the file, not its first key (the parser gives it to that key when no
  // blank line follows it).
  const first = isMap(doc.contents) ? (doc.contents.items[0]?.key as Node | undefined) : undefined;
  if (!doc.commentBefore && first?.commentBefore) {
    doc.commentBefore = first.commentBefore;
    first.commentBefore = undefined;
  }
  return doc;
}

/** A config file's `# @package X` header (among its leading comment lines), if any. */
function packageHeader(file: string): string | undefined {
  let header: string | undefined;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.startsWith("#")) break;
    header = /^#\s*@package\s+(\S+)/.exec(line)?.[1] ?? header;
  }
  return header;
}

const joinPackage = (...parts: string[]) => parts.filter(Boolean).join(".");

/** Where a config of a group is: its group folder and the package it merges at. */
interface Place {
  group: string;
  pkg: string;
}

/**
 * One defaults-list item as Hydra 1.3 reads it: `_self_`; `name` (a config of the including config's group, at its
 * package); `group: option`, `group@pkg: option` (the group relative to the including config's group, `/group` from
 * the config folder; the package relative to the including config's, `_global_` and `_here_` as Hydra has them;
 * `${other}` in an option is that group's choice); `override` and `optional` prefixes; a null option selects nothing.
 */
function defaultsItem(
  item: unknown,
  at: Place,
  choices: Map<string, string>,
): { self: true } | { config: string; place: Place; optional: boolean } | undefined {
  if (item === "_self_") return { self: true };
  if (typeof item === "string") return { config: path.posix.join(at.group, item), place: at, optional: false };
  if (!item || typeof item !== "object" || Array.isArray(item)) return undefined;
  const [rawKey, option] = Object.entries(item as Record<string, unknown>)[0] ?? [];
  if (rawKey === undefined || option === null || option === undefined || typeof option === "object") return undefined;
  const optional = /^optional\s+/.test(rawKey);
  const key = rawKey.replace(/^(override|optional)\s+/, "");
  const [groupPart, pkgPart] = key.split("@") as [string, string | undefined];
  const group = groupPart.startsWith("/")
    ? path.posix.normalize(groupPart.slice(1))
    : path.posix.normalize(path.posix.join(at.group, groupPart));
  const chosen = String(option).replace(/\$\{([^}]+)\}/g, (whole, name: string) => choices.get(name) ?? whole);
  choices.set(group, chosen);
  const pkg =
    pkgPart === "_global_"
      ? ""
      : pkgPart === "_here_"
        ? at.pkg
        : joinPackage(at.pkg, pkgPart ?? group.replaceAll("/", "."));
  return { config: path.posix.join(group, chosen), place: { group, pkg }, optional };
}

/** The tree a config file composes to (its defaults list applied), merged into `into` at its package. */
function compose(
  file: string,
  place: Place,
  into: Tree,
  composer: Composer & { choices: Map<string, string> },
  depth: number,
): void {
  if (depth > MAX_DEPTH) {
    composer.problems.push(`${file}: defaults nested more than ${MAX_DEPTH} deep`);
    return;
  }
  const header = packageHeader(file);
  const at: Place = header === undefined ? place : { ...place, pkg: header === "_global_" ? "" : header };
  const own = treeOf(readDocument(file, composer).contents);
  const defaults = own.get("defaults");
  own.delete("defaults");
  const list = defaults && !(defaults instanceof Map) && Array.isArray(defaults.value) ? defaults.value : [];
  let selfDone = false;
  const mergeSelf = () => {
    if (!selfDone) mergeInto(subtreeAt(into, at.pkg), own);
    selfDone = true;
  };
  for (const item of list) {
    const parsed = defaultsItem(item, at, composer.choices);
    if (!parsed) continue;
    if ("self" in parsed) {
      mergeSelf();
      continue;
    }
    const target = path.join(composer.configDir, `${parsed.config}.yaml`);
    if (parsed.optional && !existsSync(target)) continue;
    try {
      compose(target, parsed.place, into, composer, depth + 1);
    } catch (err) {
      composer.problems.push(`${path.relative(composer.configDir, target)}: ${(err as Error).message}`);
    }
  }
  mergeSelf();
}

function fieldsOf(tree: Tree, prefix: string, out: ReadField[]): void {
  for (const [key, value] of tree) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value instanceof Map) {
      fieldsOf(value, name, out);
      continue;
    }
    // An interpolation is resolved by the trainer; OmegaConf's `???` is a value the run must be given.
    const mandatory = value.value === "???";
    const computed = mandatory || (typeof value.value === "string" && value.value.includes("${"));
    out.push({
      name,
      ...(mandatory
        ? { type: "required", fieldType: { kind: "any" } }
        : value.float
          ? { type: "float", fieldType: { kind: "float" } }
          : typeOf(value.value)),
      default: computed ? undefined : value.value,
      ...(computed ? { defaultExpr: value.value as string } : {}),
      description: mandatory ? `Required: set it before a run starts. ${value.description}`.trim() : value.description,
    });
  }
}

/** An entry's fields: `yaml` reads the file as it is, `hydra` composes its defaults list first. */
export function readYamlFields(file: string, reader: "yaml" | "hydra", maxBytes: number): ReadEntry {
  const composer: Composer = { configDir: path.dirname(file), problems: [], maxBytes };
  const tree: Tree = new Map();
  const doc = readDocument(file, composer);
  if (doc.errors.length) throw new Error(doc.errors[0]!.message.split("\n")[0]);
  if (reader === "hydra") compose(file, { group: "", pkg: "" }, tree, { ...composer, choices: new Map() }, 0);
  else mergeInto(tree, treeOf(doc.contents));
  const fields: ReadField[] = [];
  fieldsOf(tree, "", fields);
  const description = doc.commentBefore ? doc.commentBefore.trim().split("\n")[0]!.trim() : "";
  return { fields, description, problems: composer.problems };
}

// An entry's config fields read from YAML, without running anything: every leaf key (nested as a.b) with its value as
// the default, its type from that value and its comment as the description. The hydra reader first composes the
// file's `defaults:` list the way Hydra does (group files merged at their package, `_self_` where it stands, last by
// default), so a verl-style config shows the fields its trainer reads.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isMap, isScalar, parseDocument, type Node, type Pair } from "yaml";
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
}

type Tree = Map<string, Leaf | Tree>;

function typeOf(value: unknown): { type: string; fieldType: FieldType } {
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
    else tree.set(key, { value: value ? (value.toJSON() as unknown) : null, description });
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

function readDocument(file: string, composer: Composer) {
  const size = statSync(file).size;
  if (size > composer.maxBytes) throw new Error(`larger than ${composer.maxBytes} bytes`);
  const doc = parseDocument(readFileSync(file, "utf8"), { uniqueKeys: false });
  // A comment at the top of the file describes the file, not its first key (the parser gives it to that key when no
  // blank line follows it).
  const first = isMap(doc.contents) ? (doc.contents.items[0]?.key as Node | undefined) : undefined;
  if (!doc.commentBefore && first?.commentBefore) {
    doc.commentBefore = first.commentBefore;
    first.commentBefore = undefined;
  }
  return doc;
}

/** One defaults-list item: the file it names (relative to the config folder) and the package it merges at. */
function defaultsItem(item: unknown, ownPackage: string): { file?: string; pkg: string; self?: boolean } | undefined {
  if (item === "_self_") return { self: true, pkg: ownPackage };
  if (typeof item === "string") return { file: item.replace(/^\//, ""), pkg: ownPackage };
  if (!item || typeof item !== "object") return undefined;
  const [rawKey, option] = Object.entries(item as Record<string, unknown>)[0] ?? [];
  if (rawKey === undefined || option === null || option === undefined) return undefined;
  const key = rawKey.replace(/^override\s+/, "").replace(/^optional\s+/, "");
  const [group, pkgPart] = key.split("@") as [string, string | undefined];
  const groupPath = group.replace(/^\//, "");
  const pkg =
    pkgPart === "_global_" ? "" : pkgPart === "_here_" ? ownPackage : (pkgPart ?? groupPath.replaceAll("/", "."));
  const full = pkgPart === undefined && ownPackage ? `${ownPackage}.${pkg}` : pkg;
  return { file: path.join(groupPath, String(option)), pkg: full };
}

/** The tree a config file composes to (its defaults list applied), merged into `into` at `pkg`. */
function compose(file: string, pkg: string, into: Tree, composer: Composer, depth: number): void {
  if (depth > MAX_DEPTH) {
    composer.problems.push(`${file}: defaults nested more than ${MAX_DEPTH} deep`);
    return;
  }
  const doc = readDocument(file, composer);
  const own = treeOf(doc.contents);
  const defaults = own.get("defaults");
  own.delete("defaults");
  const list = defaults && !(defaults instanceof Map) && Array.isArray(defaults.value) ? defaults.value : [];
  let selfDone = false;
  const mergeSelf = () => {
    if (!selfDone) mergeInto(subtreeAt(into, pkg), own);
    selfDone = true;
  };
  for (const item of list) {
    const parsed = defaultsItem(item, pkg);
    if (!parsed) continue;
    if (parsed.self) {
      mergeSelf();
      continue;
    }
    const target = path.join(
      composer.configDir,
      parsed.file!.endsWith(".yaml") ? parsed.file! : `${parsed.file!}.yaml`,
    );
    try {
      compose(target, parsed.pkg, into, composer, depth + 1);
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
    const interpolated = typeof value.value === "string" && value.value.includes("${");
    out.push({
      name,
      ...typeOf(value.value),
      default: interpolated ? undefined : value.value,
      ...(interpolated ? { defaultExpr: value.value as string } : {}),
      description: value.description,
    });
  }
}

/** An entry's fields: `yaml` reads the file as it is, `hydra` composes its defaults list first. */
export function readYamlFields(file: string, reader: "yaml" | "hydra", maxBytes: number): ReadEntry {
  const composer: Composer = { configDir: path.dirname(file), problems: [], maxBytes };
  const tree: Tree = new Map();
  const doc = readDocument(file, composer);
  if (doc.errors.length) throw new Error(doc.errors[0]!.message.split("\n")[0]);
  if (reader === "hydra") compose(file, "", tree, composer, 0);
  else mergeInto(tree, treeOf(doc.contents));
  const fields: ReadField[] = [];
  fieldsOf(tree, "", fields);
  const description = doc.commentBefore ? doc.commentBefore.trim().split("\n")[0]!.trim() : "";
  return { fields, description, problems: composer.problems };
}

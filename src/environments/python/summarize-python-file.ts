// Parses one Python file with tree-sitter and keeps only what discovery needs: classes, bindings, fields, config_init.
import type Parser from "tree-sitter";
import { withinParseGates } from "../threads/parse-gate.ts";
import { readSyntaxTree, type PyNode } from "./cursor-node.ts";
import type {
  Binding,
  ClassDecl,
  ConfigInitDecl,
  FieldDecl,
  FileOutcome,
  FileSummary,
  PyValue,
} from "./python-file-summary.ts";
import { readMainEntry } from "./read-main-entry.ts";
import { exprOf, readDottedName, readNumber, readPythonValue, readStringLiteral } from "./read-python-value.ts";

type Node = PyNode;

// Module-level statements inside these still bind names at import time (try/except ImportError, if TYPE_CHECKING).
const TRANSPARENT = new Set([
  "if_statement",
  "elif_clause",
  "else_clause",
  "try_statement",
  "except_clause",
  "finally_clause",
  "with_statement",
  "block",
]);

/**
 * Parse source text; a file with any syntax error is refused, naming the first error's line. In a parse helper thread the
 * parse and the reading of its tree (both in the native binding) count in the thread's parse gates, so the thread is
 * never terminated in the middle of them.
 */
export function summarizePythonFile(parser: Parser, source: string): FileOutcome {
  return withinParseGates(() => summarizeParsed(parser, source));
}

function summarizeParsed(parser: Parser, source: string): FileOutcome {
  const tree = parser.parse(source);
  const root = tree.rootNode;
  if (root.hasError) {
    const error = firstError(root);
    const line = (error ?? root).startPosition.row + 1;
    return { kind: "refused", message: `Python syntax error near line ${line}; file skipped` };
  }
  // Read through a cursor: only the nodes discovery looks at are made (cursor-node.ts).
  const statements = readSyntaxTree(tree, source).namedChildren;
  const summary: FileSummary = { classes: [], main: readMainEntry(statements), bindings: [], starImports: [] };
  const exceptRanges: Array<[number, number]> = [];
  const tryRanges: Array<[number, number]> = [];
  for (const statement of moduleStatements(statements, exceptRanges, tryRanges)) addStatement(summary, statement);
  for (const entry of summary.bindings) {
    if (exceptRanges.some(([start, end]) => entry.order >= start && entry.order < end)) entry.fallback = true;
    if (tryRanges.some(([start, end]) => entry.order >= start && entry.order < end)) entry.guarded = true;
  }
  return { kind: "summary", summary };
}

/** The first syntax error or missing node under `node`, for the line a refusal names. */
export function firstError(node: Parser.SyntaxNode): Parser.SyntaxNode | undefined {
  if (node.type === "ERROR" || node.isMissing) return node;
  for (const child of node.children) {
    if (child.hasError || child.isMissing) {
      const found = firstError(child);
      if (found) return found;
    }
  }
  return undefined;
}

/** The statements run at import time, looking through if/try/with; except clauses' and try statements' ranges are collected. */
export function* moduleStatements(
  nodes: readonly Node[],
  exceptRanges: Array<[number, number]>,
  tryRanges: Array<[number, number]> = [],
): Generator<Node> {
  for (const child of nodes) {
    if (child.type === "except_clause") exceptRanges.push([child.startIndex, child.endIndex]);
    if (child.type === "try_statement") tryRanges.push([child.startIndex, child.endIndex]);
    if (TRANSPARENT.has(child.type)) yield* moduleStatements(child.namedChildren, exceptRanges, tryRanges);
    else yield child;
  }
}

/** What reading imports adds to: the module's bindings and star imports. */
export type ImportBindings = Pick<FileSummary, "bindings" | "starImports">;

function bind(summary: ImportBindings, name: string, order: number, binding: Binding): void {
  summary.bindings.push({ name, order, binding });
}

function addStatement(summary: FileSummary, node: Node): void {
  const order = node.startIndex;
  switch (node.type) {
    case "import_statement":
      for (const name of node.childrenForFieldName("name")) addModuleImport(summary, name, order);
      return;
    case "import_from_statement":
      addFromImport(summary, node, order);
      return;
    case "decorated_definition": {
      const definition = node.childForFieldName("definition");
      if (definition?.type === "class_definition") addClass(summary, definition, order);
      return;
    }
    case "class_definition":
      addClass(summary, node, order);
      return;
    case "expression_statement": {
      const [assignment] = node.namedChildren;
      if (assignment?.type !== "assignment") return;
      const left = assignment.childForFieldName("left");
      const right = assignment.childForFieldName("right");
      if (left?.type === "identifier" && right)
        bind(summary, left.text, order, { kind: "value", value: readPythonValue(right) });
      return;
    }
    default:
      return;
  }
}

/** Binds the names an `import a.b` statement's name binds. */
export function addModuleImport(summary: ImportBindings, node: Node, order: number): void {
  if (node.type === "aliased_import") {
    const name = node.childForFieldName("name");
    const alias = node.childForFieldName("alias");
    if (name && alias) bind(summary, alias.text, order, { kind: "import-module", module: name.text });
    return;
  }
  const [head] = node.text.split(".");
  if (head) bind(summary, head, order, { kind: "import-module", module: head });
}

/** Binds the names a `from m import a, b as c` statement binds, or records a star import. */
export function addFromImport(summary: ImportBindings, node: Node, order: number): void {
  const moduleNode = node.childForFieldName("module_name");
  if (!moduleNode) return;
  const module = moduleNode.text.replace(/\s+/g, "");
  if (node.namedChildren.some((child) => child.type === "wildcard_import")) {
    summary.starImports.push(module);
    return;
  }
  for (const nameNode of node.childrenForFieldName("name")) {
    if (nameNode.type !== "aliased_import") {
      const name = nameNode.text;
      bind(summary, name, order, { kind: "import-from", module, name });
      continue;
    }
    const imported = nameNode.childForFieldName("name");
    const local = nameNode.childForFieldName("alias");
    if (imported && local) bind(summary, local.text, order, { kind: "import-from", module, name: imported.text });
  }
}

function addClass(summary: FileSummary, node: Node, order: number): void {
  const nameNode = node.childForFieldName("name");
  const body = node.childForFieldName("body");
  if (!nameNode || !body) return;
  const decl: ClassDecl = {
    name: nameNode.text,
    order,
    line: node.startRow + 1,
    bases: readBases(node.childForFieldName("superclasses")),
    fields: [],
    members: [],
  };
  readClassBody(decl, body);
  bind(summary, decl.name, order, { kind: "class", index: summary.classes.length });
  summary.classes.push(decl);
}

function readBases(argumentList: Node | null): Array<string[] | null> {
  if (!argumentList) return [];
  return argumentList.namedChildren
    .filter((arg) => arg.type !== "keyword_argument" && arg.type !== "comment")
    .map((arg) => readDottedName(arg) ?? null);
}

function readClassBody(decl: ClassDecl, body: Node): void {
  const statements = body.namedChildren.filter((child) => child.type !== "comment");
  const [first] = statements;
  const docNode =
    first?.type === "expression_statement" && first.namedChildCount === 1 ? first.namedChildren[0] : undefined;
  if (docNode) {
    const doc = readStringLiteral(docNode);
    const line = doc
      ?.split(/\r?\n/)
      .map((text) => text.trim())
      .find((text) => text.length > 0);
    if (line) decl.docstring = line;
  }
  for (const statement of statements) {
    if (statement.type === "expression_statement") readClassAssignment(decl, statement);
    const fn = statement.type === "decorated_definition" ? statement.childForFieldName("definition") : statement;
    if (fn?.type === "function_definition" && fn.childForFieldName("name")?.text === "config_init") {
      const fnBody = fn.childForFieldName("body");
      // One that cannot be read still overrides its ancestors' config_init: it is the one Python calls.
      if (fnBody) decl.configInit = readConfigInit(fnBody) ?? { overrides: [] };
    }
  }
}

function readClassAssignment(decl: ClassDecl, statement: Node): void {
  const [assignment] = statement.namedChildren;
  if (assignment?.type !== "assignment") return;
  const left = assignment.childForFieldName("left");
  const right = assignment.childForFieldName("right");
  const type = assignment.childForFieldName("type");
  if (left?.type !== "identifier") return;
  const name = left.text;
  if (name === "name" && right) {
    const value = readStringLiteral(right);
    if (value !== undefined) decl.envName = value;
  } else if (name === "env_config_cls" && right) {
    const path = readDottedName(right);
    if (path) decl.envConfigCls = path;
  }
  if (type) {
    const field = readField(name, type, right);
    if (field) decl.fields.push(field);
  } else if (right) {
    decl.members.push({ name, value: readPythonValue(right) });
  }
}

function readField(name: string, typeNode: Node, right: Node | null): FieldDecl | undefined {
  const annotation = typeNode.text.replace(/\s+/g, " ").trim();
  // pydantic ignores ClassVar annotations and underscore names; they are not settable config.
  if (name.startsWith("_") || /^(typing\.)?ClassVar\b/.test(annotation)) return undefined;
  if (name === "name" || name === "env_config_cls") return undefined;
  const field: FieldDecl = { name, annotation, default: { kind: "unknown" } };
  if (!right) return field;
  const callee = right.type === "call" ? readDottedName(right.childForFieldName("function") ?? right) : undefined;
  if (callee?.at(-1) !== "Field") {
    field.default = readPythonValue(right);
    return field;
  }
  const args = right.childForFieldName("arguments")?.namedChildren ?? [];
  const [firstPositional] = args.filter((arg) => arg.type !== "keyword_argument" && arg.type !== "comment");
  if (firstPositional) field.default = readPythonValue(firstPositional);
  for (const arg of args) {
    if (arg.type !== "keyword_argument") continue;
    const key = arg.childForFieldName("name")?.text;
    const value = arg.childForFieldName("value");
    if (!key || !value) continue;
    if (key === "default") field.default = readPythonValue(value);
    else if (key === "default_factory") field.default = readFactory(value);
    else if (key === "description") {
      const text = readStringLiteral(value);
      if (text !== undefined) field.description = text;
    } else if (key === "ge" || key === "gt" || key === "le" || key === "lt") {
      const bound = readNumber(value);
      if (bound !== undefined) field[key] = bound;
    } else if (key in LENGTH_KEYS) {
      const bound = readNumber(value);
      if (bound !== undefined && Number.isSafeInteger(bound) && bound >= 0) field[LENGTH_KEYS[key]!] = bound;
    }
  }
  return field;
}

const LENGTH_KEYS: Record<string, "minLength" | "maxLength"> = {
  min_length: "minLength",
  max_length: "maxLength",
  min_items: "minLength",
  max_items: "maxLength",
};

const EMPTY_FACTORIES: Record<string, unknown> = { list: [], dict: {}, set: [], tuple: [], frozenset: [] };

function readFactory(node: Node): PyValue {
  if (node.type === "identifier" && node.text in EMPTY_FACTORIES) {
    return { kind: "literal", value: structuredClone(EMPTY_FACTORIES[node.text]) };
  }
  if (node.type === "lambda" && !node.childForFieldName("parameters")) {
    const body = node.childForFieldName("body");
    const value = body ? readPythonValue(body) : undefined;
    if (value) return value;
  }
  // default_factory=make_paths runs make_paths() when the config is built.
  return exprOf(node, node.type === "lambda" ? "" : "()");
}

// config_init() builds the config with keyword arguments and returns it first in a tuple; both shapes
// `cfg = C(...); ...; return cfg, servers` and `return C(...), servers` are common.
function readConfigInit(body: Node): ConfigInitDecl | undefined {
  const statements = body.namedChildren;
  const returnIndex = statements.findLastIndex((statement) => statement.type === "return_statement");
  const returned = statements[returnIndex]?.namedChildren[0];
  const first =
    returned && (returned.type === "expression_list" || returned.type === "tuple")
      ? returned.namedChildren[0]
      : returned;
  if (!first) return undefined;
  if (first.type === "call") return readConstructorCall(first) ?? { overrides: [] };
  if (first.type !== "identifier") return undefined;
  const variable = first.text;
  let decl: ConfigInitDecl | undefined;
  for (const statement of statements.slice(0, returnIndex)) {
    const [assignment] = statement.type === "expression_statement" ? statement.namedChildren : [];
    if (assignment?.type !== "assignment") continue;
    const left = assignment.childForFieldName("left");
    const right = assignment.childForFieldName("right");
    if (!left || !right) continue;
    if (left.type === "identifier" && left.text === variable) {
      decl = right.type === "call" ? readConstructorCall(right) : undefined;
    } else if (decl && left.type === "attribute" && left.childForFieldName("object")?.text === variable) {
      const attribute = left.childForFieldName("attribute")?.text;
      if (attribute) decl.overrides.push({ name: attribute, value: readPythonValue(right) });
    }
  }
  return decl;
}

function readConstructorCall(call: Node): ConfigInitDecl | undefined {
  const callee = readDottedName(call.childForFieldName("function") ?? call);
  const last = callee?.at(-1);
  // Only class-like callees (MyConfig(...), cls.env_config_cls(...)) construct the config; helpers do not.
  if (!last || !(/^[A-Z]/.test(last) || last === "env_config_cls")) return undefined;
  const overrides: ConfigInitDecl["overrides"] = [];
  for (const arg of call.childForFieldName("arguments")?.namedChildren ?? []) {
    if (arg.type !== "keyword_argument") continue;
    const key = arg.childForFieldName("name")?.text;
    const value = arg.childForFieldName("value");
    if (key && value) overrides.push({ name: key, value: readPythonValue(value) });
  }
  return { configClass: callee, overrides };
}

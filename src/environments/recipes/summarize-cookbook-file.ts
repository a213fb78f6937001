// Parses one cookbook Python file with tree-sitter and keeps what recipe discovery needs: chz classes, aliases, entry point.
import type Parser from "tree-sitter";
import { readSyntaxTree, type PyNode } from "../python/cursor-node.ts";
import { callsIn, isMainTest, moduleFunctions } from "../python/read-main-entry.ts";
import { exprOf, readDottedName, readPythonValue, readStringLiteral } from "../python/read-python-value.ts";
import { addFromImport, addModuleImport, firstError, moduleStatements } from "../python/summarize-python-file.ts";
import { withinParseGates } from "../threads/parse-gate.ts";
import type {
  ChzClassDecl,
  ChzEntry,
  ChzFieldDecl,
  CookbookFileOutcome,
  CookbookFileSummary,
} from "./cookbook-file-summary.ts";

type Node = PyNode;

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Decode and summarise a file's bytes; a file that is not UTF-8 or has a syntax error is refused, saying why. */
export function summarizeCookbookFile(parser: Parser, bytes: Uint8Array): CookbookFileOutcome {
  let source: string;
  try {
    source = decoder.decode(bytes);
  } catch {
    return { kind: "refused", message: "not valid UTF-8; skipped" };
  }
  return withinParseGates(() => summarizeSource(parser, source));
}

function summarizeSource(parser: Parser, source: string): CookbookFileOutcome {
  const tree = parser.parse(source);
  if (tree.rootNode.hasError) {
    const line = (firstError(tree.rootNode) ?? tree.rootNode).startPosition.row + 1;
    return { kind: "refused", message: `Python syntax error near line ${line}; file skipped` };
  }
  const statements = readSyntaxTree(tree, source).namedChildren;
  const summary: CookbookFileSummary = {
    classes: [],
    bindings: [],
    starImports: [],
    aliases: {},
    functions: {},
  };
  const docstring = firstLine(docstringOf(statements));
  if (docstring) summary.docstring = docstring;
  const exceptRanges: Array<[number, number]> = [];
  for (const statement of moduleStatements(statements, exceptRanges)) addStatement(summary, statement);
  for (const entry of summary.bindings) {
    if (exceptRanges.some(([start, end]) => entry.order >= start && entry.order < end)) entry.fallback = true;
  }
  const entry = readChzEntry(statements);
  if (entry) summary.entry = entry;
  return { kind: "summary", summary };
}

function docstringOf(statements: readonly Node[]): string | undefined {
  const [first] = statements.filter((node) => node.type !== "comment");
  if (first?.type !== "expression_statement" || first.namedChildCount !== 1) return undefined;
  const [node] = first.namedChildren;
  return node ? readStringLiteral(node) : undefined;
}

function firstLine(text: string | undefined): string | undefined {
  return text
    ?.split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line.length > 0);
}

const collapse = (text: string): string => text.replace(/\s+/g, " ").trim();

function addStatement(summary: CookbookFileSummary, node: Node): void {
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
      if (definition?.type === "class_definition") addClass(summary, definition, order, node.namedChildren);
      else if (definition?.type === "function_definition") addFunction(summary, definition);
      return;
    }
    case "class_definition":
      addClass(summary, node, order, []);
      return;
    case "function_definition":
      addFunction(summary, node);
      return;
    case "type_alias_statement": {
      // `type Name = ...` (Python 3.12).
      const [left, right] = node.namedChildren.filter((child) => child.type !== "comment");
      if (left && right) summary.aliases[left.text] = collapse(right.text);
      return;
    }
    case "expression_statement":
      addAssignment(summary, node, order);
      return;
    default:
      return;
  }
}

function addAssignment(summary: CookbookFileSummary, node: Node, order: number): void {
  const [assignment] = node.namedChildren;
  if (assignment?.type !== "assignment") return;
  const left = assignment.childForFieldName("left");
  const right = assignment.childForFieldName("right");
  if (left?.type !== "identifier" || !right) return;
  summary.bindings.push({ name: left.text, order, binding: { kind: "value", value: readPythonValue(right) } });
  const annotation = assignment.childForFieldName("type")?.text;
  // `X = Literal[...]`, `X = A | B`, `X: TypeAlias = ...`: a name that stands for a type in annotations.
  const isTypeLike =
    right.type === "subscript" ||
    (right.type === "binary_operator" && right.childForFieldName("operator")?.type === "|") ||
    (annotation !== undefined && /(^|\.)TypeAlias$/.test(annotation.trim()));
  if (isTypeLike) summary.aliases[left.text] = collapse(right.text);
  else delete summary.aliases[left.text];
}

function addFunction(summary: CookbookFileSummary, node: Node): void {
  const name = node.childForFieldName("name")?.text;
  if (!name) return;
  const [first] = (node.childForFieldName("parameters")?.namedChildren ?? []).filter(
    (param) => param.type !== "comment",
  );
  const type =
    first?.type === "typed_parameter" || first?.type === "typed_default_parameter"
      ? first.childForFieldName("type")
      : null;
  summary.functions[name] = type ? { firstParamAnnotation: collapse(type.text) } : {};
}

/** The dotted name a decorator applies (`chz.chz` for `@chz.chz(...)`), or undefined. */
function decoratorName(decorator: Node): string | undefined {
  if (decorator.type !== "decorator") return undefined;
  const [expression] = decorator.namedChildren.filter((child) => child.type !== "comment");
  if (!expression) return undefined;
  const target = expression.type === "call" ? expression.childForFieldName("function") : expression;
  return (target ? readDottedName(target) : undefined)?.join(".");
}

function addClass(summary: CookbookFileSummary, node: Node, order: number, decorators: readonly Node[]): void {
  const name = node.childForFieldName("name")?.text;
  const body = node.childForFieldName("body");
  if (!name || !body) return;
  const superclasses = node.childForFieldName("superclasses");
  const decl: ChzClassDecl = {
    name,
    order,
    isChz: decorators.some((decorator) => ["chz.chz", "chz"].includes(decoratorName(decorator) ?? "")),
    isDataclass: decorators.some((decorator) =>
      ["dataclass", "dataclasses.dataclass"].includes(decoratorName(decorator) ?? ""),
    ),
    bases: (superclasses?.namedChildren ?? [])
      .filter((arg) => arg.type !== "keyword_argument" && arg.type !== "comment")
      .map((arg) => readDottedName(arg) ?? null),
    fields: [],
  };
  const docstring = firstLine(docstringOf(body.namedChildren));
  if (docstring) decl.docstring = docstring;
  readFields(decl, body.namedChildren);
  if (decl.bases.some((base) => base?.at(-1)?.endsWith("Enum"))) {
    const members = readEnumMembers(body.namedChildren);
    if (members) decl.enumMembers = members;
  }
  summary.bindings.push({ name, order, binding: { kind: "class", index: summary.classes.length } });
  summary.classes.push(decl);
}

/** `NAME = literal` members of an Enum body; undefined when one is not a literal (`auto()`). */
function readEnumMembers(children: readonly Node[]): ChzClassDecl["enumMembers"] {
  const members: NonNullable<ChzClassDecl["enumMembers"]> = [];
  for (const statement of children) {
    const [assignment] = statement.type === "expression_statement" ? statement.namedChildren : [];
    if (assignment?.type !== "assignment" || assignment.childForFieldName("type")) continue;
    const left = assignment.childForFieldName("left");
    const right = assignment.childForFieldName("right");
    if (left?.type !== "identifier" || !right || left.text.startsWith("_")) continue;
    const value = readPythonValue(right);
    if (value.kind !== "literal") return undefined;
    if (typeof value.value !== "string" && typeof value.value !== "number" && typeof value.value !== "boolean")
      return undefined;
    members.push({ name: left.text, value: value.value });
  }
  return members.length > 0 ? members : undefined;
}

const lastRowOf = (node: Node): number => node.startRow + (node.text.match(/\n/g)?.length ?? 0);
const commentText = (node: Node): string => node.text.replace(/^#+\s?/, "").trim();

function readFields(decl: ChzClassDecl, children: readonly Node[]): void {
  children.forEach((statement, index) => {
    if (statement.type !== "expression_statement") return;
    const [assignment] = statement.namedChildren;
    if (assignment?.type !== "assignment") return;
    const left = assignment.childForFieldName("left");
    const type = assignment.childForFieldName("type");
    if (left?.type !== "identifier" || !type) return;
    const annotation = collapse(type.text);
    // chz skips ClassVar annotations: they are class constants, not fields.
    if (/^(typing\.)?ClassVar\b/.test(annotation)) return;
    const field: ChzFieldDecl = { name: left.text, annotation, default: { kind: "missing" } };
    const right = assignment.childForFieldName("right");
    if (right) readDefault(field, right);
    field.description ??= attributeDocstring(children[index + 1]) ?? commentsAround(children, index);
    if (field.description === undefined) delete field.description;
    decl.fields.push(field);
  });
}

/** A string statement just below a field: its docstring (pydantic's use_attribute_docstrings, Sphinx). */
function attributeDocstring(next: Node | undefined): string | undefined {
  if (next?.type !== "expression_statement" || next.namedChildCount !== 1) return undefined;
  const text = readStringLiteral(next.namedChildren[0]!);
  return text === undefined ? undefined : collapse(text) || undefined;
}

const FIELD_CALLS = new Set(["chz.field", "field", "dataclasses.field", "Field", "pydantic.Field"]);

/** A field's default: the value, or what `chz.field(...)`, `dataclasses.field(...)` or pydantic's `Field(...)` says. */
function readDefault(field: ChzFieldDecl, right: Node): void {
  const callee = right.type === "call" ? readDottedName(right.childForFieldName("function") ?? right) : undefined;
  const name = callee?.join(".");
  if (!name || !FIELD_CALLS.has(name)) {
    field.default = readPythonValue(right);
    return;
  }
  const pydantic = name.endsWith("Field");
  for (const arg of right.childForFieldName("arguments")?.namedChildren ?? []) {
    if (arg.type === "comment") continue;
    if (arg.type !== "keyword_argument") {
      // pydantic's Field(default, ...): `...` (or nothing) means the field is required.
      if (pydantic && field.default.kind === "missing" && arg.type !== "ellipsis") field.default = readPythonValue(arg);
      continue;
    }
    const key = arg.childForFieldName("name")?.text;
    const value = arg.childForFieldName("value");
    if (!value) continue;
    if (key === "default" && value.type !== "ellipsis") field.default = readPythonValue(value);
    else if (key === "default_factory") {
      const expr = exprOf(value, value.type === "lambda" ? "" : "()");
      field.factory = expr.kind === "expr" ? expr.text : collapse(value.text);
    } else if (key === "doc" || key === "description") {
      const doc = readStringLiteral(value);
      if (doc !== undefined) field.description = doc.trim();
    } else if (key === "metadata") {
      const help = helpOf(value);
      if (help !== undefined) field.description = help;
    }
  }
}

/** `metadata={"help": "..."}` of a dataclass field (HfArgumentParser's help text). */
function helpOf(node: Node): string | undefined {
  if (node.type !== "dictionary") return undefined;
  for (const pair of node.namedChildren) {
    if (pair.type !== "pair" || readStringLiteral(pair.childForFieldName("key") ?? pair) !== "help") continue;
    const value = pair.childForFieldName("value");
    const text = value ? readStringLiteral(value) : undefined;
    if (text !== undefined) return collapse(text);
  }
  return undefined;
}

/** The trailing comment on the statement's last line, else the comment lines directly above it. */
function commentsAround(children: readonly Node[], index: number): string | undefined {
  const statement = children[index]!;
  const next = children[index + 1];
  if (next?.type === "comment" && next.startRow === lastRowOf(statement)) return commentText(next);
  const lines: string[] = [];
  let row = statement.startRow;
  for (let at = index - 1; at >= 0; at -= 1) {
    const node = children[at]!;
    if (node.type !== "comment" || node.startRow !== row - 1) break;
    // A comment trailing the previous statement belongs to it.
    const before = children[at - 1];
    if (before && before.type !== "comment" && lastRowOf(before) === node.startRow) break;
    lines.unshift(commentText(node));
    row = node.startRow;
  }
  const text = lines.filter((line) => line.length > 0).join(" ");
  return text.length > 0 ? text : undefined;
}

const ENTRY_CALLS = new Set(["entrypoint", "nested_entrypoint"]);

/** The chz entry point the main block calls, directly or through one module-level function it calls. */
function readChzEntry(statements: readonly Node[]): ChzEntry | undefined {
  let functions: Map<string, Node> | undefined;
  for (const statement of statements) {
    if (statement.type !== "if_statement" || !isMainTest(statement.childForFieldName("condition"))) continue;
    const block = statement.childForFieldName("consequence");
    if (!block) continue;
    for (const call of callsIn(block)) {
      const entry = readEntryCall(call);
      if (entry) return entry;
      const callee = call.childForFieldName("function");
      const body =
        callee?.type === "identifier" ? (functions ??= moduleFunctions(statements)).get(callee.text) : undefined;
      for (const inner of body ? callsIn(body) : []) {
        const found = readEntryCall(inner);
        if (found) return found;
      }
    }
  }
  return undefined;
}

function readEntryCall(call: Node): ChzEntry | undefined {
  const callee = readDottedName(call.childForFieldName("function") ?? call);
  const last = callee?.at(-1);
  if (!callee || !last || !ENTRY_CALLS.has(last)) return undefined;
  if (callee.length > 1 && callee.join(".") !== `chz.${last}`) return undefined;
  const [first] = (call.childForFieldName("arguments")?.namedChildren ?? []).filter(
    (arg) => arg.type !== "keyword_argument" && arg.type !== "comment",
  );
  const target = first ? readDottedName(first) : undefined;
  if (!target) return { kind: "opaque", text: first ? collapse(first.text) : "" };
  return { kind: last === "entrypoint" ? "entrypoint" : "nested", target };
}

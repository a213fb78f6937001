// The native tree-sitter parser with the Python grammar: loaded once per thread, when that thread first parses.
import { createRequire } from "node:module";
import type Parser from "tree-sitter";
import { withinParseGates } from "./parse-gate.ts";

let parser: Parser | undefined;

/**
 * Both packages are CommonJS: require() loads them in about 12 ms, where import() took 40 (Node's ES module loader
 * lexes and wraps each CommonJS file first). The grammar's node-type table is dropped before the language is set:
 * tree-sitter would spend about 25 ms building a node class with field getters for each named type, and discovery reads
 * trees through cursors (../python/cursor-node.ts), never through those getters. Fields stay readable with childForFieldName.
 * Loading runs the binding's native code too, so it counts in the thread's parse gates (parse-gate.ts) like a parse: a
 * helper terminated as it starts would otherwise be terminated inside it.
 */
export function pythonParser(): Parser {
  parser ??= withinParseGates(loadPythonParser);
  return parser;
}

function loadPythonParser(): Parser {
  const require = createRequire(import.meta.url);
  const TreeSitter = require("tree-sitter") as typeof Parser;
  const python = require("tree-sitter-python") as Parser.Language;
  python.nodeTypeInfo = [];
  const loaded = new TreeSitter();
  loaded.setLanguage(python);
  return loaded;
}

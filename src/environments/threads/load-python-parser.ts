// The native tree-sitter parser with the Python grammar: loaded once per thread, when that thread first parses.
import { createRequire } from "node:module";
import type Parser from "tree-sitter";

let parser: Parser | undefined;

/**
 * Both packages are CommonJS: require() loads them in about 12 ms, where import() took 40 (Node's ES module loader
 * lexes and wraps each CommonJS file first). The grammar's node-type table is dropped before the language is set:
 * tree-sitter would spend about 25 ms building a node class with field getters for each named type, and discovery reads
 * trees through cursors (../python/cursor-node.ts), never through those getters. Fields stay readable with childForFieldName.
 */
export function pythonParser(): Parser {
  if (!parser) {
    const require = createRequire(import.meta.url);
    const TreeSitter = require("tree-sitter") as typeof Parser;
    const python = require("tree-sitter-python") as Parser.Language;
    python.nodeTypeInfo = [];
    const loaded = new TreeSitter();
    loaded.setLanguage(python);
    parser = loaded;
  }
  return parser;
}

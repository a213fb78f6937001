// Loads the native tree-sitter parser with the Python grammar: once per thread, when that thread first parses.
import type Parser from "tree-sitter";

let loading: Promise<Parser> | undefined;

export function loadPythonParser(): Promise<Parser> {
  loading ??= Promise.all([import("tree-sitter"), import("tree-sitter-python")]).then(([{ default: TreeSitter }, { default: Python }]) => {
    const parser = new TreeSitter();
    parser.setLanguage(Python as Parser.Language);
    return parser;
  });
  return loading;
}

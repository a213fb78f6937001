// What `python FILE serve` would run: the `X.cli()` calls of the file's `if __name__ == "__main__":` block, read statically.
import type { PyNode } from "./cursor-node.ts";
import type { MainEntry } from "./python-file-summary.ts";
import { readDottedName, readStringLiteral } from "./read-python-value.ts";

type Node = PyNode;

// Definitions inside the block run only when called; a call to a module-level function is followed one level.
const SKIPPED = new Set(["function_definition", "class_definition", "lambda", "decorated_definition"]);

/** True for the condition `__name__ == "__main__"` (either way round). */
export function isMainTest(condition: Node | null): boolean {
  if (condition?.type !== "comparison_operator") return false;
  const [left, right] = condition.namedChildren;
  const operator = condition.children.find((child) => !child.isNamed)?.text;
  if (operator !== "==" || !left || !right) return false;
  const isName = (n: Node) => n.type === "identifier" && n.text === "__name__";
  const isMain = (n: Node) => readStringLiteral(n) === "__main__";
  return (isName(left) && isMain(right)) || (isMain(left) && isName(right));
}

/** Calls inside `node`, not inside the definitions it holds. */
export function* callsIn(node: Node): Generator<Node> {
  for (const child of node.namedChildren) {
    if (SKIPPED.has(child.type)) continue;
    if (child.type === "call") yield child;
    yield* callsIn(child);
  }
}

function cliTarget(call: Node): string[] | undefined {
  const callee = readDottedName(call.childForFieldName("function") ?? call);
  return callee && callee.length >= 2 && callee.at(-1) === "cli" ? callee.slice(0, -1) : undefined;
}

/** The module-level functions' bodies by name. */
export function moduleFunctions(statements: readonly Node[]): Map<string, Node> {
  const functions = new Map<string, Node>();
  for (const statement of statements) {
    const definition =
      statement.type === "decorated_definition" ? statement.childForFieldName("definition") : statement;
    if (definition?.type !== "function_definition") continue;
    const name = definition.childForFieldName("name")?.text;
    const body = definition.childForFieldName("body");
    if (name && body) functions.set(name, body);
  }
  return functions;
}

/**
 * The module's main block and the classes whose `cli()` it calls, directly or through one module-level function.
 * `statements`: the module's top-level statements.
 */
export function readMainEntry(statements: readonly Node[]): MainEntry {
  const blocks: Node[] = [];
  for (const statement of statements) {
    if (statement.type === "if_statement" && isMainTest(statement.childForFieldName("condition"))) {
      const body = statement.childForFieldName("consequence");
      if (body) blocks.push(body);
    }
  }
  // Looked up only when the block calls a bare name: most call `X.cli()` itself.
  let functions: Map<string, Node> | undefined;
  const cliCalls: string[][] = [];
  const add = (target: string[] | undefined) => {
    if (target && !cliCalls.some((seen) => seen.join(".") === target.join("."))) cliCalls.push(target);
  };
  for (const block of blocks) {
    for (const call of callsIn(block)) {
      add(cliTarget(call));
      // main() or asyncio.run(main()): the function's own cli() calls count.
      const callee = call.childForFieldName("function");
      const body =
        callee?.type === "identifier" ? (functions ??= moduleFunctions(statements)).get(callee.text) : undefined;
      if (body) for (const inner of callsIn(body)) add(cliTarget(inner));
    }
  }
  return { hasMainBlock: blocks.length > 0, cliCalls };
}

// readSyntaxTree: the cursor-made nodes discovery reads must say what tree-sitter's own nodes say, node for node.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Parser from "tree-sitter";
import Python from "tree-sitter-python";
import { describe, expect, it } from "vitest";
import { readSyntaxTree, type PyNode } from "../../src/environments/python/cursor-node.ts";

const parser = new Parser();
parser.setLanguage(Python as Parser.Language);

interface Seen {
  type: string;
  isNamed: boolean;
  startIndex: number;
  endIndex: number;
  text: string;
  startRow: number;
  fields: Array<string | null>;
  children: Seen[];
}

function fromTreeSitter(node: Parser.SyntaxNode): Seen {
  return {
    type: node.type,
    isNamed: node.isNamed,
    startIndex: node.startIndex,
    endIndex: node.endIndex,
    text: node.text,
    startRow: node.startPosition.row,
    fields: node.children.map((_, i) => node.fieldNameForChild(i) ?? null),
    children: node.children.map(fromTreeSitter),
  };
}

function fromCursor(node: PyNode): Seen {
  const fieldOf = (child: PyNode): string | null => {
    for (const field of FIELDS) if (node.childrenForFieldName(field).includes(child)) return field;
    return null;
  };
  return {
    type: node.type,
    isNamed: node.isNamed,
    startIndex: node.startIndex,
    endIndex: node.endIndex,
    text: node.text,
    startRow: node.startRow,
    fields: node.children.map(fieldOf),
    children: node.children.map(fromCursor),
  };
}

// Every field name of the Python grammar.
const FIELDS = Object.values(
  (Python as unknown as { nodeTypeInfo: Array<{ fields?: Record<string, unknown> }> }).nodeTypeInfo,
)
  .flatMap((info) => Object.keys(info.fields ?? {}))
  .filter((field, i, all) => all.indexOf(field) === i);

const SOURCE = `"""Module docstring: ünïcödé, and a character outside the BMP: \u{1F600}."""
import os, sys as system
from .base import (BaseEnv as Base,  # comment inside
    BaseEnvConfig)


@dataclass
class QuizConfig(BaseEnvConfig):
    """Config: \u{1F600} in a string."""
    size: int = Field(default=4, ge=1, description=f"{os.sep} and {{braces}}")
    ratio: float = 1024 * 32 / -2


class QuizEnv(Base, metaclass=Meta):
    name = "quiz"
    env_config_cls = QuizConfig

    @classmethod
    def config_init(cls):
        return QuizConfig(size=8), [dict(a=1)]

    async def run(self):
        if x := await self.step():
            yield [i for i in range(3) if i]


if __name__ == "__main__":
    QuizEnv.cli()
`;

describe("readSyntaxTree", () => {
  it("gives every node's type, text, offsets, line, fields and children as tree-sitter's own nodes do", () => {
    const tree = parser.parse(SOURCE);
    expect(tree.rootNode.hasError).toBe(false);
    expect(fromCursor(readSyntaxTree(tree, SOURCE))).toEqual(fromTreeSitter(tree.rootNode));
  });

  it("agrees on every file of the Atropos-shaped fixtures", () => {
    const folder = fileURLToPath(new URL("../fixtures/atropos-shapes/", import.meta.url));
    const files = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".py"));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const source = readFileSync(`${folder}${file}`, "utf8");
      const tree = parser.parse(source);
      expect(fromCursor(readSyntaxTree(tree, source)), file).toEqual(fromTreeSitter(tree.rootNode));
    }
  });

  it("finds a field, the named children and the descendants of a type", () => {
    const source = 'x = f"{a} and {b!r}"\n';
    const root = readSyntaxTree(parser.parse(source), source);
    const assignment = root.namedChildren[0]!.namedChildren[0]!;
    expect(assignment.type).toBe("assignment");
    expect(assignment.childForFieldName("left")?.text).toBe("x");
    expect(assignment.childForFieldName("type")).toBeNull();
    const string = assignment.childForFieldName("right")!;
    expect(string.firstChild?.type).toBe("string_start");
    expect(string.lastChild?.type).toBe("string_end");
    expect(string.descendantsOfType("interpolation").map((node) => node.text)).toEqual(["{a}", "{b!r}"]);
    expect(root.namedChildCount).toBe(1);
  });
});

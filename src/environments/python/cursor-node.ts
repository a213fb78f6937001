// A parsed file's syntax tree as discovery reads it: through one tree-sitter cursor, each node a plain object made the
// first time its parent's children are asked for. Discovery pays only for the nodes it reads (it never reads a method
// body), and a node's type, text, fields and children then cost no more calls into tree-sitter. A node of
// tree-sitter's own API costs about 3.5 times as much: 5 us against 1.45 us a node, read warm on Atropos's top-level
// files.
import type Parser from "tree-sitter";

export interface PyNode {
  readonly type: string;
  readonly isNamed: boolean;
  /** Offsets into the source text, as tree-sitter's own nodes give them. */
  readonly startIndex: number;
  readonly endIndex: number;
  readonly text: string;
  /** The line the node starts on, from 0. */
  readonly startRow: number;
  readonly children: readonly PyNode[];
  readonly namedChildren: readonly PyNode[];
  readonly namedChildCount: number;
  readonly firstChild: PyNode | null;
  readonly lastChild: PyNode | null;
  childForFieldName(field: string): PyNode | null;
  childrenForFieldName(field: string): PyNode[];
  descendantsOfType(type: string): PyNode[];
}

/** What the nodes of one tree share: the cursor that makes them, the source, and names already asked for. */
class TreeReader {
  private readonly cursor: Parser.TreeCursor;
  private readonly typeNames: string[] = [];
  private readonly typeIsNamed: boolean[] = [];
  private readonly fieldNames: Array<string | undefined> = [];
  private lineStarts: number[] | undefined;

  constructor(
    tree: Parser.Tree,
    readonly source: string,
  ) {
    this.cursor = tree.walk();
  }

  root(): CursorNode {
    return this.here(undefined);
  }

  childrenOf(node: CursorNode): CursorNode[] {
    const cursor = this.cursor;
    cursor.gotoDescendant(node.descendant);
    const children: CursorNode[] = [];
    if (!cursor.gotoFirstChild()) return children;
    do children.push(this.here(this.fieldName(cursor.currentFieldId)));
    while (cursor.gotoNextSibling());
    return children;
  }

  /** The line of a source offset, from 0 (tree-sitter counts lines by "\n"). */
  rowOf(index: number): number {
    const starts = (this.lineStarts ??= lineStartsOf(this.source));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  private here(field: string | undefined): CursorNode {
    const cursor = this.cursor;
    const typeId = cursor.nodeTypeId;
    // A node's type and whether it is named go with its symbol: asked once per symbol.
    const type = (this.typeNames[typeId] ??= cursor.nodeType);
    const isNamed = (this.typeIsNamed[typeId] ??= cursor.nodeIsNamed);
    return new CursorNode(
      this,
      type,
      isNamed,
      cursor.startIndex,
      cursor.endIndex,
      field,
      cursor.currentDescendantIndex,
    );
  }

  private fieldName(fieldId: number): string | undefined {
    if (fieldId === 0) return undefined;
    if (!(fieldId in this.fieldNames)) this.fieldNames[fieldId] = this.cursor.currentFieldName || undefined;
    return this.fieldNames[fieldId];
  }
}

function lineStartsOf(source: string): number[] {
  const starts = [0];
  for (let at = source.indexOf("\n"); at >= 0; at = source.indexOf("\n", at + 1)) starts.push(at + 1);
  return starts;
}

class CursorNode implements PyNode {
  private childList: CursorNode[] | undefined;
  private namedList: CursorNode[] | undefined;

  constructor(
    private readonly reader: TreeReader,
    readonly type: string,
    readonly isNamed: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
    /** The field this node fills in its parent ("name", "body", ...), if any. */
    readonly field: string | undefined,
    /** Where the node is in the tree, for the cursor to come back to it. */
    readonly descendant: number,
  ) {}

  get text(): string {
    return this.reader.source.slice(this.startIndex, this.endIndex);
  }

  get startRow(): number {
    return this.reader.rowOf(this.startIndex);
  }

  get children(): readonly CursorNode[] {
    return (this.childList ??= this.reader.childrenOf(this));
  }

  get namedChildren(): readonly CursorNode[] {
    return (this.namedList ??= this.children.filter((child) => child.isNamed));
  }

  get namedChildCount(): number {
    return this.namedChildren.length;
  }

  get firstChild(): CursorNode | null {
    return this.children[0] ?? null;
  }

  get lastChild(): CursorNode | null {
    return this.children.at(-1) ?? null;
  }

  childForFieldName(field: string): CursorNode | null {
    return this.children.find((child) => child.field === field) ?? null;
  }

  childrenForFieldName(field: string): CursorNode[] {
    return this.children.filter((child) => child.field === field);
  }

  descendantsOfType(type: string): CursorNode[] {
    const found: CursorNode[] = [];
    const visit = (node: CursorNode): void => {
      for (const child of node.children) {
        if (child.type === type) found.push(child);
        visit(child);
      }
    };
    visit(this);
    return found;
  }
}

/** The root of `tree`, parsed from `source`, read through a cursor. */
export function readSyntaxTree(tree: Parser.Tree, source: string): PyNode {
  return new TreeReader(tree, source).root();
}

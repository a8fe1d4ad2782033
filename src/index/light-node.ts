/**
 * A parsed file read into plain JavaScript nodes by one TreeCursor walk.
 *
 * Why: node-tree-sitter marshals every SyntaxNode it hands out (childForFieldName, namedChildren,
 * parent), several microseconds each, while a cursor step costs a fraction of that. Reading the
 * file once, five properties a node, and answering field look-ups in JavaScript made extraction
 * about twice as fast as navigating SyntaxNodes (see docs/benchmarks.md). The queries in
 * queries/go/*.scm still decide what is extracted: captures are mapped onto these nodes.
 */
import type Parser from 'tree-sitter';
import Go from 'tree-sitter-go';

/**
 * Types of anonymous nodes (punctuation, keywords), from the grammar's own node-types data. In
 * tree-sitter-go no type is both named and anonymous, so the type decides named-ness and the walk
 * saves one native call per node (of five).
 */
const ANONYMOUS_TYPES = new Set(
  ((Go as unknown as { nodeTypeInfo?: { type: string; named: boolean }[] }).nodeTypeInfo ?? [])
    .filter((t) => !t.named)
    .map((t) => t.type),
);

export class LightNode {
  readonly children: LightNode[] = [];
  parent: LightNode | null = null;

  constructor(
    private readonly file: FileNodes,
    readonly type: string,
    readonly isNamed: boolean,
    readonly field: string | null,
    readonly startIndex: number,
    readonly endIndex: number,
  ) {}

  get text(): string {
    return this.file.source.slice(this.startIndex, this.endIndex);
  }

  get startPosition(): { row: number; column: number } {
    return this.file.position(this.startIndex);
  }

  get endPosition(): { row: number; column: number } {
    return this.file.position(this.endIndex);
  }

  childForFieldName(field: string): LightNode | null {
    for (const c of this.children) if (c.field === field) return c;
    return null;
  }

  childrenForFieldName(field: string): LightNode[] {
    return this.children.filter((c) => c.field === field);
  }

  get namedChildren(): LightNode[] {
    return this.children.filter((c) => c.isNamed);
  }

  get firstNamedChild(): LightNode | null {
    for (const c of this.children) if (c.isNamed) return c;
    return null;
  }

  get namedChildCount(): number {
    let n = 0;
    for (const c of this.children) if (c.isNamed) n++;
    return n;
  }
}

export class FileNodes {
  /** Every node in pre-order (sorted by start; a parent before its children). */
  readonly nodes: LightNode[] = [];
  private readonly lineStarts: number[] = [0];

  constructor(readonly source: string) {
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  position(index: number): { row: number; column: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return { row: lo, column: index - this.lineStarts[lo]! };
  }

  /** The node a query captured (same start, end and type). */
  find(node: { startIndex: number; endIndex: number; type: string }): LightNode | undefined {
    const { startIndex, endIndex, type } = node;
    let lo = 0;
    let hi = this.nodes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.nodes[mid]!.startIndex < startIndex) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.nodes.length && this.nodes[i]!.startIndex === startIndex; i++) {
      const n = this.nodes[i]!;
      if (n.endIndex === endIndex && n.type === type) return n;
    }
    return undefined;
  }
}

/** Nodes whose inside no extraction reads (their text is enough): not walked into. */
const LEAF_TYPES = new Set(['interpreted_string_literal', 'raw_string_literal', 'rune_literal', 'comment']);

export function readFileNodes(tree: Parser.Tree, source: string): FileNodes {
  const file = new FileNodes(source);
  const cursor = tree.walk();
  const stack: LightNode[] = [];
  for (;;) {
    const type = cursor.nodeType;
    const parent = stack[stack.length - 1];
    const field = parent ? (cursor.currentFieldName ?? null) : null;
    const node = new LightNode(file, type, !ANONYMOUS_TYPES.has(type), field, cursor.startIndex, cursor.endIndex);
    if (parent) {
      node.parent = parent;
      if (node.type !== 'comment') parent.children.push(node);
    }
    file.nodes.push(node);
    if (!LEAF_TYPES.has(node.type) && cursor.gotoFirstChild()) {
      stack.push(node);
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return file;
      stack.pop();
    }
  }
}

/**
 * The captured constructs of a parsed file read into plain JavaScript nodes through a TreeCursor.
 *
 * Why: node-tree-sitter marshals every SyntaxNode it hands out (childForFieldName, namedChildren,
 * parent), several microseconds each, while a cursor step costs a fraction of that. Reading the
 * captured subtrees once through a cursor and answering field look-ups in JavaScript is several
 * times cheaper than navigating SyntaxNodes (see docs/benchmarks.md). The queries in
 * queries/go/*.scm decide what is extracted: captures are mapped onto these nodes.
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

  constructor(
    private readonly file: FileNodes,
    readonly type: string,
    readonly isNamed: boolean,
    readonly field: string | null,
    readonly startIndex: number,
    readonly endIndex: number,
  ) {}

  /** An anonymous node is a token whose text is its type (`:=`, `*`, `+`), so its span is not read. */
  get text(): string {
    return this.isNamed ? this.file.source.slice(this.startIndex, this.endIndex) : this.type;
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
  /** Walked named nodes by start index (several nodes can start at one index). */
  private readonly byStart = new Map<number, LightNode | LightNode[]>();
  private readonly lineStarts: number[] = [0];

  constructor(readonly source: string) {
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1))
      this.lineStarts.push(i + 1);
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

  add(node: LightNode): void {
    const at = this.byStart.get(node.startIndex);
    if (at === undefined) this.byStart.set(node.startIndex, node);
    else if (Array.isArray(at)) at.push(node);
    else this.byStart.set(node.startIndex, [at, node]);
  }

  /** The walked node a query captured (same start, end and type). */
  find(node: { startIndex: number; endIndex: number; type: string }): LightNode | undefined {
    const at = this.byStart.get(node.startIndex);
    if (at === undefined) return undefined;
    for (const n of Array.isArray(at) ? at : [at])
      if (n.endIndex === node.endIndex && n.type === node.type) return n;
    return undefined;
  }
}

/** Nodes whose inside no extraction reads (their text is enough): not walked into. */
const LEAF_TYPES = new Set([
  'interpreted_string_literal',
  'raw_string_literal',
  'rune_literal',
  'comment',
]);

/**
 * Bodies: what a body holds that extraction reads is captured on its own (calls, assignments,
 * declarations), so a walk stops at a block and the captures inside it start walks of their own.
 * Statement skeletons and conditions (`if err != nil`) are never walked.
 */
const BODY_TYPES = new Set(['block']);

/** Named types that have fields: only their children are asked for a field name. */
const FIELDED_TYPES = new Set(
  (
    (Go as unknown as { nodeTypeInfo?: { type: string; named: boolean; fields?: object }[] })
      .nodeTypeInfo ?? []
  )
    .filter((t) => t.named && t.fields && Object.keys(t.fields).length > 0)
    .map((t) => t.type),
);

/**
 * Tokens extraction reads besides those in a field (operators): `:=` in a range clause, the `*`
 * of an embedded pointer field. Other punctuation and keywords get no node.
 */
const KEPT_TOKENS = new Set([':=', '*']);

/** Names of node types and fields by id, learnt from the cursor the first time an id is seen. */
const typeNames: (string | undefined)[] = [];
const typeIsNamed: boolean[] = [];
const fieldNames: (string | null | undefined)[] = [null];

/**
 * Reads the subtrees of the captured nodes (in document order, as queries return them) into
 * LightNodes. A capture already inside a walked subtree is not walked again.
 */
export function readCapturedNodes(
  tree: Parser.Tree,
  source: string,
  captured: readonly Parser.SyntaxNode[],
): FileNodes {
  const file = new FileNodes(source);
  const cursor = tree.walk();
  for (const node of captured) {
    if (file.find(node)) continue;
    cursor.reset(node);
    walk(file, cursor);
  }
  return file;
}

function walk(file: FileNodes, cursor: Parser.TreeCursor): void {
  const stack: LightNode[] = [];
  let parent: LightNode | undefined;
  let fielded = false;
  for (;;) {
    const id = cursor.nodeTypeId;
    let type = typeNames[id];
    if (type === undefined) {
      type = typeNames[id] = cursor.nodeType;
      typeIsNamed[id] = !ANONYMOUS_TYPES.has(type);
    }
    let field: string | null = null;
    if (fielded) {
      const fieldId = cursor.currentFieldId;
      field = fieldNames[fieldId] ?? null;
      if (fieldNames[fieldId] === undefined)
        field = fieldNames[fieldId] = cursor.currentFieldName ?? null;
    }
    let descend = false;
    if (typeIsNamed[id]) {
      const node = new LightNode(file, type, true, field, cursor.startIndex, cursor.endIndex);
      if (parent && type !== 'comment') parent.children.push(node);
      file.add(node);
      if (!LEAF_TYPES.has(type) && !(parent && BODY_TYPES.has(type)) && cursor.gotoFirstChild()) {
        stack.push(node);
        parent = node;
        fielded = FIELDED_TYPES.has(type);
        descend = true;
      }
    } else if (parent && (field !== null || KEPT_TOKENS.has(type))) {
      parent.children.push(new LightNode(file, type, false, field, -1, -1));
    }
    if (descend) continue;
    for (;;) {
      // The walk's root has no siblings to visit: its cursor would step outside the subtree.
      if (stack.length === 0) return;
      if (cursor.gotoNextSibling()) break;
      cursor.gotoParent();
      stack.pop();
      parent = stack[stack.length - 1];
      fielded = parent !== undefined && FIELDED_TYPES.has(parent.type);
    }
  }
}

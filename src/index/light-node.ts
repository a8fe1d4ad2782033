/**
 * The captured constructs of a parsed file as plain JavaScript nodes, built from the flat arrays
 * the native walk returns (src/index/native.ts).
 *
 * Why: node-tree-sitter marshals every SyntaxNode it hands out (childForFieldName, namedChildren,
 * parent, a cursor step), several microseconds each; over Kubernetes that cost more than the parse
 * itself. The native side walks the captured subtrees once and extraction answers field look-ups
 * here, in JavaScript. The queries in queries/go/*.scm decide what is extracted: captures are
 * mapped onto these nodes.
 */
import type { NativeNames, NativeParse, WalkRules } from './native.js';

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

  /** Line (1-based) of an offset in this node's file. */
  lineAt(index: number): number {
    return this.file.position(index).row + 1;
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

/** The comments directly above a declaration (and above its parent), for doc comments. */
export interface DocSpans {
  own: readonly (readonly [number, number])[];
  parentType: string | null;
  parentNamedChildCount: number;
  parent: readonly (readonly [number, number])[];
}

export interface Capture {
  name: string;
  /** The walked node, or null for captures read only by their text (`package`, comments). */
  node: LightNode | null;
  startIndex: number;
  endIndex: number;
  docs: DocSpans | null;
}

export class FileNodes {
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

  text(start: number, end: number): string {
    return this.source.slice(start, end);
  }
}

/** Nodes whose inside no extraction reads (their text is enough): not walked into. */
const LEAF_TYPES = ['interpreted_string_literal', 'raw_string_literal', 'rune_literal', 'comment'];

/**
 * Bodies: what a body holds that extraction reads is captured on its own (calls, assignments,
 * declarations), so a walk stops at a block and the captures inside it start walks of their own.
 * Statement skeletons and conditions (`if err != nil`) are never walked.
 */
const BODY_TYPES = ['block'];

/**
 * Tokens extraction reads besides those in a field (operators): `:=` in a range clause, the `*`
 * of an embedded pointer field. Other punctuation and keywords get no node.
 */
const KEPT_TOKENS = [':=', '*'];

export const walkRules: WalkRules = {
  leafTypes: LEAF_TYPES,
  bodyTypes: BODY_TYPES,
  keptTokens: KEPT_TOKENS,
  docCaptures: [
    'definition.function',
    'definition.method',
    'definition.type',
    'definition.var',
    'definition.const',
  ],
  skipCaptures: ['comment.build', 'package', 'scope', 'jump'],
};

/**
 * Builds the walked nodes and the captures of one native parse. The `scope` captures (blocks,
 * statements with a header, case clauses: 410,755 of v1.24's 1,488,937) and `jump` captures
 * (break, continue, goto, fallthrough) are not made into objects: their start and end offsets go
 * to `scopes` and `jumps`, in pairs, when given.
 */
export function readCaptures(
  parsed: NativeParse,
  names: NativeNames,
  source: string,
  scopes?: number[],
  jumps?: number[],
): Capture[] {
  const file = new FileNodes(source);
  const { nodes, captures, docs } = parsed;
  const built: LightNode[] = new Array<LightNode>(nodes.length / 5);
  for (let i = 0, n = 0; i < nodes.length; i += 5, n++) {
    const start = nodes[i + 2]!;
    const node = new LightNode(
      file,
      names.typeNames[nodes[i]!]!,
      start >= 0,
      names.fieldNames[nodes[i + 1]!] ?? null,
      start,
      nodes[i + 3]!,
    );
    built[n] = node;
    const parent = nodes[i + 4]!;
    if (parent >= 0) built[parent]!.children.push(node);
  }
  const out: Capture[] = [];
  const scopeId = scopes ? names.captureNames.indexOf('scope') : -1;
  const jumpId = names.captureNames.indexOf('jump');
  for (let i = 0; i < captures.length; i += 5) {
    if (captures[i] === scopeId) {
      scopes!.push(captures[i + 2]!, captures[i + 3]!);
      continue;
    }
    if (captures[i] === jumpId) {
      jumps?.push(captures[i + 2]!, captures[i + 3]!);
      continue;
    }
    const index = captures[i + 1]!;
    const docsAt = captures[i + 4]!;
    out.push({
      name: names.captureNames[captures[i]!]!,
      node: index >= 0 ? built[index]! : null,
      startIndex: captures[i + 2]!,
      endIndex: captures[i + 3]!,
      docs: docsAt >= 0 ? readDocs(docs, docsAt, names) : null,
    });
  }
  return out;
}

function readDocs(docs: Int32Array, at: number, names: NativeNames): DocSpans {
  const spans = (): (readonly [number, number])[] => {
    const count = docs[at++]!;
    const out: (readonly [number, number])[] = [];
    for (let k = 0; k < count; k++, at += 2) out.push([docs[at]!, docs[at + 1]!]);
    return out;
  };
  const own = spans();
  const type = docs[at++]!;
  const parentNamedChildCount = docs[at++]!;
  const parent = spans();
  return {
    own,
    parentType: type >= 0 ? names.typeNames[type]! : null,
    parentNamedChildCount,
    parent,
  };
}

/**
 * Mermaid, for Markdown that GitHub, GitLab and most wikis render: a flowchart of the (folded)
 * call graph, or a sequenceDiagram of the spine. Ids are generated (`n0`, `c0`, `p0`) because
 * Mermaid ids cannot hold `*`, `(`, `.` or `$`; every label is quoted and escaped.
 */
import type { EdgeKind, Trace, TraceEdge } from '../trace/types.js';
import {
  describeFold,
  describeLocation,
  describeSize,
  describeTotal,
  describeVersion,
} from './describe.js';
import { splitSymbol, shortSymbol, packageName } from './symbols.js';
import type { Link, Vertex } from './trace-graph.js';
import { clusterVertices, foldTrace, indexTrace } from './trace-graph.js';
import type { RenderOptions } from './types.js';

export function renderMermaid(trace: Trace, options: RenderOptions): string {
  return options.style === 'sequence'
    ? renderSequence(trace, options)
    : renderFlowchart(trace, options);
}

/** How each kind of call looks: dynamic dispatch dotted, framework hops thick, goroutines end in
 * a circle; the label names the kind so the picture needs no legend. */
const flowArrow: Record<EdgeKind, string> = {
  static: '-->',
  closure: '-->',
  interface: '-.->',
  funcvalue: '-.->',
  framework: '==>',
  goroutine: '--o',
  channel: '-.->',
};

/** Link colours, matching the DOT renderer's. */
export const kindColors: Record<EdgeKind, string> = {
  static: '#333333',
  closure: '#999999',
  interface: '#c77c02',
  funcvalue: '#1f6fb2',
  framework: '#8e44ad',
  goroutine: '#198754',
  channel: '#d63384',
};

export function renderFlowchart(trace: Trace, options: RenderOptions): string {
  const index = indexTrace(trace);
  const graph = foldTrace(trace, options.maxNodes, index);
  const out = [
    `%% ${headline(trace)}${graph.hidden ? `; ${graph.hidden} folded` : ''}`,
    'flowchart LR',
  ];
  let clusterNumber = 0;
  for (const [key, vertices] of clusterVertices(graph.vertices, options.cluster)) {
    const inCluster = key !== '';
    if (inCluster)
      out.push(`  subgraph c${clusterNumber++}["${escapeLabel(key)}"]`, '    direction LR');
    const relativeTo = options.cluster === 'package' && inCluster ? key : undefined;
    for (const vertex of vertices)
      out.push(`${inCluster ? '    ' : '  '}${flowNode(vertex, relativeTo)}`);
    if (inCluster) out.push('  end');
  }
  const styles = new Map<EdgeKind | 'fold', number[]>();
  graph.links.forEach((link, i) => {
    out.push(`  ${flowLink(link)}`);
    const kind = link.edge?.kind ?? 'fold';
    styles.set(kind, [...(styles.get(kind) ?? []), i]);
  });
  for (const vertex of graph.vertices) {
    if (vertex.type === 'symbol' && vertex.node?.url) {
      out.push(
        `  click ${vertex.id} href "${vertex.node.url.replaceAll('"', '%22')}" "${escapeLabel(tooltip(vertex))}" _blank`,
      );
    }
  }
  out.push(
    '  classDef root stroke-width:3px',
    '  classDef closure stroke-dasharray:4 3',
    '  classDef fold fill:#eeeeee,stroke:#999999,color:#555555',
  );
  if (graph.vertices.some((vertex) => vertex.type === 'more'))
    out.push(
      '  classDef more fill:#f7f7f7,stroke:#bbbbbb,stroke-dasharray:2 2,color:#666666,font-size:11px',
    );
  for (const [name, ids] of classes(graph.vertices)) out.push(`  class ${ids.join(',')} ${name}`);
  for (const [kind, links] of styles) {
    if (kind === 'static') continue;
    const color = kind === 'fold' ? '#999999' : kindColors[kind];
    out.push(
      `  linkStyle ${links.join(',')} stroke:${color}${kind === 'framework' ? ',stroke-width:2px' : ''}`,
    );
  }
  return `${out.join('\n')}\n`;
}

/** `kube-scheduler v1.24.0 (…): 140 functions, …; showing 140 of 4,806 functions`. */
function headline(trace: Trace): string {
  const total = describeTotal(trace);
  return `${trace.component} ${describeVersion(trace)}: ${describeSize(trace)}${total ? `; ${total}` : ''}`;
}

function flowNode(vertex: Vertex, relativeTo: string | undefined): string {
  if (vertex.type === 'fold') return `${vertex.id}(["… ${vertex.hidden} more"])`;
  if (vertex.type === 'more') return `${vertex.id}(["${escapeLabel(describeFold(vertex))}"])`;
  const label = escapeLabel(shortSymbol(vertex.symbol, relativeTo));
  return vertex.node?.kind === 'closure' ? `${vertex.id}("${label}")` : `${vertex.id}["${label}"]`;
}

function flowLink(link: Link): string {
  if (!link.edge) return `${link.from} -.- ${link.to}`;
  const label = linkLabel(link.edge);
  return `${link.from} ${flowArrow[link.edge.kind]}${label ? `|"${escapeLabel(label)}"|` : ''} ${link.to}`;
}

/** Short words on the arrow: the wrapper or rule for framework hops, the kind for the rest. */
function linkLabel(edge: TraceEdge): string {
  const others = edge.alternatives.length ? ` +${edge.alternatives.length}` : '';
  switch (edge.kind) {
    case 'static':
      return '';
    case 'closure':
      return '';
    case 'goroutine':
      return 'go';
    case 'framework':
      return edge.via ?? 'framework';
    default:
      return `${edge.kind}${others}`;
  }
}

function tooltip(vertex: Vertex & { type: 'symbol' }): string {
  return vertex.node ? `${vertex.symbol} at ${describeLocation(vertex.node)}` : vertex.symbol;
}

function classes(vertices: readonly Vertex[]): Map<string, string[]> {
  const byClass = new Map<string, string[]>();
  const add = (name: string, id: string) => byClass.set(name, [...(byClass.get(name) ?? []), id]);
  for (const vertex of vertices) {
    if (vertex.type === 'fold') add('fold', vertex.id);
    else if (vertex.type === 'more') add('more', vertex.id);
    else if (vertex.isRoot) add('root', vertex.id);
    else if (vertex.node?.kind === 'closure') add('closure', vertex.id);
  }
  return byClass;
}

/** Sequence arrows: synchronous calls solid, dynamic dispatch dotted, goroutines asynchronous. */
const sequenceArrow: Record<EdgeKind, string> = {
  static: '->>',
  closure: '->>',
  framework: '->>',
  interface: '-->>',
  funcvalue: '-->>',
  goroutine: '-)',
  channel: '-)',
};

/**
 * The spine as a sequence diagram: calls in depth-first order from the root, each function's
 * calls shown once (a function reached again is a message, not a second expansion), up to
 * `maxNodes` messages. A participant is a receiver type for methods and a package for functions,
 * which is how a reader talks about "the scheduler calls the framework".
 */
export function renderSequence(trace: Trace, options: RenderOptions): string {
  const index = indexTrace(trace);
  const participants = new Map<string, string>();
  const declarations: string[] = [];
  const participant = (symbol: string) => {
    const name = participantName(symbol);
    let id = participants.get(name);
    if (id === undefined) {
      id = `p${participants.size}`;
      participants.set(name, id);
      declarations.push(`  participant ${id} as ${escapeLabel(name)}`);
    }
    return id;
  };

  const limit =
    options.maxNodes === undefined ? Infinity : Math.max(1, Math.floor(options.maxNodes));
  const lines: string[] = [];
  let drawn = 0;
  const expanded = new Set<string>();
  const walk = (symbol: string) => {
    expanded.add(symbol);
    const from = participant(symbol);
    for (const edge of index.calls.get(symbol) ?? []) {
      if (drawn >= limit) return;
      const to = participant(edge.callee);
      lines.push(`  ${from}${sequenceArrow[edge.kind]}${to}: ${escapeLabel(messageText(edge))}`);
      drawn++;
      if (expanded.has(edge.callee) || !index.calls.has(edge.callee)) continue;
      // The activation bar shows what runs inside the call, so nesting survives the flat list.
      lines.push(`  activate ${to}`);
      walk(edge.callee);
      lines.push(`  deactivate ${to}`);
    }
    const folded = index.nodes.get(symbol)?.folded;
    if (folded && folded.calls > 0 && drawn < limit)
      lines.push(`  Note right of ${from}: ${escapeLabel(describeFold(folded))}`);
  };
  participant(trace.root);
  walk(trace.root);
  const calls = [...index.calls.values()].reduce((n, list) => n + list.length, 0);
  const hidden = calls - drawn;
  const out = [
    `%% ${headline(trace)}`,
    'sequenceDiagram',
    '  autonumber',
    ...declarations,
    ...lines,
  ];
  if (hidden > 0)
    out.push(`  Note over ${participant(trace.root)}: … ${hidden} more calls (raise --max-nodes)`);
  return `${out.join('\n')}\n`;
}

function participantName(symbol: string): string {
  const split = splitSymbol(symbol);
  const pkg = packageName(split.package);
  if (split.receiver === null) return pkg;
  return `${pkg}.${split.receiver}`;
}

function messageText(edge: TraceEdge): string {
  const split = splitSymbol(edge.callee);
  const name = split.member;
  switch (edge.kind) {
    case 'framework':
      return `${name} (${edge.via ?? 'framework'})`;
    case 'goroutine':
      return `go ${name}`;
    case 'interface':
    case 'funcvalue':
      return `${name} [${edge.kind}]`;
    default:
      return name;
  }
}

/**
 * Mermaid reads `"` as the end of a label, `<`/`>` as HTML and `#...;` as an entity, and treats
 * `;` as a statement end in sequence text; all become entity codes.
 */
export function escapeLabel(text: string): string {
  return text.replace(/[#"<>;]/g, (ch) => `#${ch.charCodeAt(0)};`);
}

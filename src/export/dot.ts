/**
 * Graphviz DOT: one cluster per package (or file), edge styles by kind with a legend, and on
 * every node a tooltip with the full symbol and a URL to the GitHub permalink, which the SVG
 * keeps as a link. The same text is what `-o svg` lays out, so DOT and SVG never disagree.
 */
import type { EdgeKind, Trace, TraceEdge } from '../trace/types.js';
import {
  describeEdge,
  describeFold,
  describeLocation,
  describeSize,
  describeTotal,
  describeVersion,
} from './describe.js';
import { kindColors } from './mermaid.js';
import { shortSymbol } from './symbols.js';
import type { Link, Vertex } from './trace-graph.js';
import { clusterVertices, foldTrace, indexTrace } from './trace-graph.js';
import type { RenderOptions } from './types.js';

/** Told apart at a glance, also in black and white: line style first, then colour and head. */
const edgeStyle: Record<EdgeKind, Record<string, string>> = {
  static: { style: 'solid', color: kindColors.static },
  closure: { style: 'solid', color: kindColors.closure, arrowhead: 'vee' },
  interface: { style: 'dashed', color: kindColors.interface },
  funcvalue: { style: 'dotted', color: kindColors.funcvalue, penwidth: '1.5' },
  framework: { style: 'bold', color: kindColors.framework, penwidth: '2' },
  goroutine: { style: 'solid', color: kindColors.goroutine, arrowhead: 'odiamond' },
  channel: { style: 'dashed', color: kindColors.channel, arrowhead: 'empty' },
};

/** One name Graphviz has metrics for; a list would make it measure text in its default Times
 * and draw boxes too narrow for the Helvetica that SVG viewers use. */
const font = 'Helvetica';

export function renderDot(trace: Trace, options: RenderOptions): string {
  const index = indexTrace(trace);
  const graph = foldTrace(trace, options.maxNodes, index);
  const total = describeTotal(trace);
  const title = `${trace.component} ${describeVersion(trace)}: ${describeSize(trace)}${total ? `; ${total}` : ''}${graph.hidden ? `, ${graph.hidden} folded` : ''}`;
  const out = [
    'digraph trace {',
    `  graph [rankdir=LR, fontname=${quote(font)}, fontsize=12, labelloc=t, label=${quote(title)}];`,
    `  node [shape=box, style="rounded,filled", fillcolor="#f7f7f7", color="#555555", fontname=${quote(font)}, fontsize=10];`,
    `  edge [fontname=${quote(font)}, fontsize=9];`,
  ];
  let clusterNumber = 0;
  for (const [key, vertices] of clusterVertices(graph.vertices, options.cluster)) {
    const inCluster = key !== '';
    const indent = inCluster ? '    ' : '  ';
    if (inCluster) {
      out.push(`  subgraph cluster_${clusterNumber++} {`);
      out.push(
        `    label=${quote(key)}; style="rounded,filled"; fillcolor="#eef3fb"; color="#9fb4d6"; fontsize=10;`,
      );
    }
    const relativeTo = options.cluster === 'package' && inCluster ? key : undefined;
    for (const vertex of vertices) out.push(`${indent}${dotNode(vertex, relativeTo)}`);
    if (inCluster) out.push('  }');
  }
  for (const link of graph.links) out.push(`  ${dotEdge(link)}`);
  out.push(...legend(), '}');
  return `${out.join('\n')}\n`;
}

function dotNode(vertex: Vertex, relativeTo: string | undefined): string {
  if (vertex.type === 'fold') {
    const label = `… ${vertex.hidden} more`;
    const tip = `${vertex.hidden} functions hidden to keep the diagram readable; raise --max-nodes to show them`;
    return `${vertex.id} [label=${quote(label)}, tooltip=${quote(tip)}, shape=folder, style=filled, fillcolor="#eeeeee", color="#999999", fontcolor="#555555"];`;
  }
  if (vertex.type === 'more') {
    const tip = `${vertex.calls} calls of this function are left out of the view; ${vertex.flag} shows them`;
    return `${vertex.id} [label=${quote(describeFold(vertex))}, tooltip=${quote(tip)}, shape=note, fontsize=8, style=filled, fillcolor="#f7f7f7", color="#bbbbbb", fontcolor="#666666"];`;
  }
  const attrs: Record<string, string> = { label: shortSymbol(vertex.symbol, relativeTo) };
  attrs.tooltip = vertex.node
    ? `${vertex.symbol}\n${describeLocation(vertex.node)}`
    : vertex.symbol;
  if (vertex.node?.url) Object.assign(attrs, { URL: vertex.node.url, target: '_blank' });
  if (vertex.node?.kind === 'closure') attrs.style = 'rounded,filled,dashed';
  if (vertex.isRoot) Object.assign(attrs, { penwidth: '2.5', fillcolor: '#fff3c4' });
  return `${vertex.id} [${formatAttrs(attrs)}];`;
}

function dotEdge(link: Link): string {
  if (!link.edge)
    return `${link.from} -> ${link.to} [style=dashed, color="#999999", arrowhead=none];`;
  const edge = link.edge;
  const attrs: Record<string, string> = { ...edgeStyle[edge.kind] };
  const label = edgeLabel(edge);
  if (label) attrs.label = label;
  attrs.tooltip = edgeTooltip(edge);
  return `${link.from} -> ${link.to} [${formatAttrs(attrs)}];`;
}

function edgeLabel(edge: TraceEdge): string {
  if (edge.kind === 'framework') return edge.via ?? 'framework';
  if (edge.kind === 'goroutine') return 'go';
  if (edge.alternatives.length) return `+${edge.alternatives.length}`;
  return '';
}

function edgeTooltip(edge: TraceEdge): string {
  const how = describeEdge(edge) || 'static call';
  const others = edge.alternatives.length ? `\nalso: ${edge.alternatives.join(', ')}` : '';
  return `${how} at ${edge.site}${others}`;
}

/** One sample arrow per kind, stacked in a box, so a reader of a slide needs no caption. */
function legend(): string[] {
  // Graphviz stacks a rank bottom-up here; reversed, `static` ends on top as in the table order.
  const kinds = (Object.keys(edgeStyle) as EdgeKind[]).reverse();
  const lines = [
    '  subgraph cluster_legend {',
    '    label="Legend"; style="rounded"; color="#bbbbbb"; fontsize=10;',
    '    node [shape=point, style=invis, width=0.05, label=""];',
  ];
  kinds.forEach((kind, i) => {
    lines.push(
      `    legend_${i}a -> legend_${i}b [${formatAttrs({ ...edgeStyle[kind], label: kind })}];`,
    );
  });
  // Same rank on each side stacks the samples in rows instead of letting the layout chain them.
  lines.push(`    { rank=same; ${kinds.map((_, i) => `legend_${i}a;`).join(' ')} }`);
  lines.push(`    { rank=same; ${kinds.map((_, i) => `legend_${i}b;`).join(' ')} }`);
  lines.push('  }');
  return lines;
}

function formatAttrs(attrs: Record<string, string>): string {
  return Object.entries(attrs)
    .map(([key, value]) => `${key}=${quote(value)}`)
    .join(', ');
}

/** A DOT string literal; newlines become `\n`, which Graphviz shows as a centred line break. */
export function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/**
 * A report to paste into a design doc, an issue or a blog post: what was traced at which commit,
 * the diagram as a `mermaid` block (GitHub renders it), every hop with a permalink to its call
 * site, and the calls that could not be resolved. Tables list the whole trace; only the diagram
 * folds.
 */
import type { Trace, TraceEdge } from '../trace/types.js';
import {
  describeDeeper,
  describeEdge,
  describeFold,
  describeSize,
  describeTotal,
  permalink,
  permalinkBase,
} from './describe.js';
import { renderMermaid } from './mermaid.js';
import { shortSymbol } from './symbols.js';
import type { RenderOptions } from './types.js';

export function renderMarkdown(trace: Trace, options: RenderOptions): string {
  const out = [`# Call trace: ${trace.component}`, '', ...summary(trace), ''];
  out.push('## Diagram', '', '```mermaid', renderMermaid(trace, options).trimEnd(), '```', '');
  out.push('## Hops', '', '| # | Caller | Callee | Kind | Call site |', '|---:|---|---|---|---|');
  trace.edges.forEach((edge, i) => {
    out.push(
      `| ${i + 1} | ${code(shortSymbol(edge.caller))} | ${code(shortSymbol(edge.callee))} | ${kindCell(edge)} | ${siteLink(trace, edge.site)} |`,
    );
  });
  out.push('');
  const folded = trace.nodes.filter(
    (node) => node.folded && (node.folded.calls > 0 || (node.folded.helpers ?? 0) > 0),
  );
  if (folded.length > 0) {
    out.push(
      '> **Note:** this is the view, not every call. These functions make more calls than it shows:',
      '>',
    );
    for (const node of folded) {
      out.push(
        `> - ${code(shortSymbol(node.symbol))} (${siteLink(trace, `${node.file}:${node.line}`)}): ${escapeCell(describeFold(node.folded!))}`,
      );
    }
    out.push('');
  }
  out.push('## Unresolved calls', '');
  if (trace.unresolved.length === 0) {
    out.push('Every call in the trace was resolved.');
  } else {
    out.push('Calls the resolver could not pin down; they are shown, not guessed.', '');
    out.push('| Caller | Expression | Call site |', '|---|---|---|');
    for (const call of trace.unresolved) {
      out.push(
        `| ${code(shortSymbol(call.caller))} | ${code(call.expr)} | ${siteLink(trace, call.site)} |`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}

function summary(trace: Trace): string[] {
  const base = permalinkBase(trace);
  const commit = trace.repo.commit;
  const commitText = commit
    ? base
      ? `[\`${commit.slice(0, 12)}\`](${base.replace(/\/blob\//, '/tree/')})`
      : `\`${commit.slice(0, 12)}\``
    : 'unknown';
  const root = trace.nodes.find((node) => node.symbol === trace.root);
  const rootText = root
    ? `${code(trace.root)} (${siteLink(trace, `${root.file}:${root.line}`)})`
    : code(trace.root);
  return [
    `- **Component:** ${trace.component}`,
    `- **Version:** ${trace.repo.version ?? 'unknown'}`,
    `- **Commit:** ${commitText}`,
    `- **Entry point:** ${rootText}`,
    `- **Size:** ${[describeSize(trace), describeTotal(trace), describeDeeper(trace)].filter(Boolean).join('; ')}`,
  ];
}

/** `framework via wait.UntilWithContext`, and for interface calls the other implementations. */
function kindCell(edge: TraceEdge): string {
  const how = describeEdge({ ...edge, alternatives: [] }) || 'static';
  if (edge.alternatives.length === 0) return escapeCell(how);
  return `${escapeCell(how)}; also ${edge.alternatives.map((alt) => code(shortSymbol(alt))).join(', ')}`;
}

function siteLink(trace: Trace, site: string): string {
  const url = permalink(trace, site);
  return url ? `[${escapeCell(site)}](${url})` : code(site);
}

/** Inline code in a table cell: a `|` would end the cell even inside backticks. */
function code(text: string): string {
  return `\`${escapeCell(text)}\``;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

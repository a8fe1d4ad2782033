/**
 * CLI glue for the graph questions: open the index, ask src/trace/queries.ts, render text.
 */
import pc from 'picocolors';
import {
  describeStruct as describeStructIn,
  fieldAssignments,
  implementations,
  neighbours,
  type FieldAssignments,
  type IndexRef,
  type Implementations,
  type Neighbours,
  type StructView,
} from '../trace/queries.js';
import { describeLocation } from '../export/describe.js';
import { unresolvedReason } from '../shared/edge-via.js';
import type { CliContext } from './context.js';
import { openIndex } from './open-index.js';
import type { RepoOptions } from './repo.js';

async function withIndex<T>(
  ctx: CliContext,
  options: RepoOptions,
  fn: (index: IndexRef) => Promise<T>,
): Promise<T> {
  const index = await openIndex(ctx, options);
  try {
    return await fn(index);
  } finally {
    await index.close();
  }
}

export function graphNeighbours(
  ctx: CliContext,
  options: RepoOptions,
  symbol: string,
  direction: 'callers' | 'callees',
  depth: number,
): Promise<Neighbours> {
  return withIndex(ctx, options, (index) => neighbours(index, symbol, direction, depth));
}

export function findImplementations(
  ctx: CliContext,
  options: RepoOptions,
  name: string,
): Promise<Implementations> {
  return withIndex(ctx, options, (index) => implementations(index, name));
}

export function describeStruct(
  ctx: CliContext,
  options: RepoOptions,
  name: string,
): Promise<StructView> {
  return withIndex(ctx, options, (index) => describeStructIn(index, name));
}

export function findAssignments(
  ctx: CliContext,
  options: RepoOptions,
  field: string,
): Promise<FieldAssignments[]> {
  return withIndex(ctx, options, (index) => fieldAssignments(index, field));
}

const kindLabel = (kind: string, via: string | null, rank: number) => {
  if (kind === 'unresolved') return '';
  const parts =
    kind === 'static'
      ? []
      : [
          kind === 'framework' && via
            ? `framework: ${via}`
            : via?.startsWith('passed as')
              ? `${kind}, ${via}`
              : kind,
        ];
  if (rank > 0) parts.push(`alternative ${rank}`);
  if (via === 'defer') parts.push('defer');
  return parts.length ? `  [${parts.join(', ')}]` : '';
};

export function renderNeighbours(n: Neighbours, color: boolean): string {
  const dim = color ? pc.dim : (s: string) => s;
  const lines = [`${n.symbol}  ${dim(describeLocation(n))}`];
  if (n.hops.length === 0) lines.push(`  (no ${n.direction} in the index)`);
  for (const h of n.hops) {
    const outside = unresolvedReason(h.via) ?? 'unresolved';
    const other = n.direction === 'callees' ? (h.to ?? `? ${h.expr ?? ''} (${outside})`) : h.from;
    const indent = '  '.repeat(h.depth);
    lines.push(
      `${indent}${n.direction === 'callees' ? '→' : '←'} ${other}  ${dim(h.site)}${kindLabel(h.kind, h.via, h.rank)}`,
    );
    if (h.values) {
      // A call through a parameter: no path here decides it; what callers pass, and who.
      if (h.values.length === 0) lines.push(`${indent}    (no caller in the index passes a value)`);
      for (const v of h.values.slice(0, 20))
        lines.push(`${indent}    = ${v.symbol}  ${dim(`from ${v.from} ${v.site}`)}`);
      if (h.values.length > 20) lines.push(`${indent}    … ${h.values.length - 20} more`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function renderImplementations(r: Implementations): string {
  const lines = [
    `${r.interface}  ${r.file}:${r.line}`,
    `  methods: ${r.methods.join(', ') || '(none)'}`,
  ];
  lines.push(
    r.implementations.length
      ? `  implemented by ${r.implementations.length}:`
      : '  no implementations in the index',
  );
  for (const i of r.implementations)
    lines.push(`    ${i.type}${i.file ? `  ${i.file}:${i.line}` : ''}`);
  if (r.stores.length) {
    lines.push('  stored into:');
    for (const s of r.stores)
      lines.push(`    ${s.field} = ${s.expr}  (${s.type})  ${s.file}:${s.line}`);
  }
  return `${lines.join('\n')}\n`;
}

export function renderStruct(v: StructView): string {
  const lines = [`${v.type}  ${v.file}:${v.line}`];
  let from = '';
  for (const f of v.fields) {
    if (f.from !== from) {
      from = f.from;
      if (f.depth > 0) lines.push(`  — promoted from ${f.from}`);
    }
    lines.push(
      `  ${'  '.repeat(f.depth)}${f.embedded ? `${f.type} (embedded)` : `${f.name} ${f.type}`}  ${f.file ? `${f.file}:${f.line}` : ''}`,
    );
  }
  if (v.methods.length) {
    lines.push('  methods:');
    for (const m of v.methods)
      lines.push(`    ${m.symbol}${m.depth > 0 ? `  (promoted from ${m.from})` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

export function renderAssignments(list: FieldAssignments[]): string {
  const lines: string[] = [];
  for (const f of list) {
    lines.push(f.field);
    for (const s of f.stores)
      lines.push(
        `  = ${s.expr}${s.type ? `  (${s.type})` : ''}  ${s.file}:${s.line}${s.in ? `  in ${s.in}` : ''}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

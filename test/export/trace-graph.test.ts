import { describe, expect, it } from 'vitest';
import type { FoldVertex, SymbolVertex } from '../../src/export/trace-graph.js';
import { clusterVertices, foldTrace, indexTrace } from '../../src/export/trace-graph.js';
import { generatedTrace, schedulerSymbols as S, schedulerTrace } from './sample-traces.js';

const symbols = (vertices: readonly unknown[]) =>
  (vertices as (SymbolVertex | FoldVertex)[])
    .filter((v): v is SymbolVertex => v.type === 'symbol')
    .map((v) => v.symbol);
const folds = (vertices: readonly unknown[]) =>
  (vertices as (SymbolVertex | FoldVertex)[]).filter((v): v is FoldVertex => v.type === 'fold');

describe('indexTrace', () => {
  it('keeps one call per caller and callee, the first in trace order', () => {
    const calls = indexTrace(schedulerTrace()).calls.get(S.scheduleOne)!;
    expect(calls.map((edge) => [edge.callee, edge.site])).toEqual([
      [S.schedulePod, 'pkg/scheduler/schedule_one.go:96'],
      [S.failure, 'pkg/scheduler/schedule_one.go:128'],
      [S.bindingCycle, 'pkg/scheduler/schedule_one.go:193'],
    ]);
  });
});

describe('foldTrace', () => {
  it('keeps every function when the trace fits', () => {
    const trace = schedulerTrace();
    const graph = foldTrace(trace, 60);
    expect(symbols(graph.vertices)).toHaveLength(trace.nodes.length);
    expect(folds(graph.vertices)).toEqual([]);
    expect(graph.hidden).toBe(0);
    expect(graph.links).toHaveLength(27);
  });

  it('keeps the first functions breadth-first and says how many each fold hides', () => {
    const graph = foldTrace(schedulerTrace(), 5);
    expect(symbols(graph.vertices)).toEqual([S.main, S.newCommand, S.runE, S.runCommand, S.setup]);
    expect(folds(graph.vertices)).toEqual([
      { type: 'fold', id: 'f0', hidden: 19, owner: 'n3' },
      { type: 'fold', id: 'f1', hidden: 1, owner: 'n4' },
    ]);
    expect(graph.hidden).toBe(20);
    expect(
      graph.links
        .filter((link) => link.edge === undefined)
        .map((link) => `${link.from}->${link.to}`),
    ).toEqual(['n3->f0', 'n4->f1']);
  });

  it('hides as many functions as it drops from a large trace, and folds the same way every time', () => {
    const trace = generatedTrace(300);
    const graph = foldTrace(trace, 60);
    expect(symbols(graph.vertices)).toHaveLength(60);
    expect(folds(graph.vertices).reduce((n, fold) => n + fold.hidden, 0)).toBe(240);
    expect(graph.hidden).toBe(240);
    expect(foldTrace(generatedTrace(300), 60)).toEqual(graph);
  });

  it('never links to a vertex it did not keep', () => {
    const graph = foldTrace(generatedTrace(300), 40);
    const ids = new Set(graph.vertices.map((v) => v.id));
    for (const link of graph.links) expect(ids.has(link.from) && ids.has(link.to)).toBe(true);
  });
});

describe('clusterVertices', () => {
  it('groups by package in order of first appearance and leaves folds outside', () => {
    const graph = foldTrace(schedulerTrace(), 12);
    const groups = clusterVertices(graph.vertices, 'package');
    expect([...groups.keys()]).toEqual([
      'k8s.io/kubernetes/cmd/kube-scheduler',
      'k8s.io/kubernetes/cmd/kube-scheduler/app',
      'k8s.io/kubernetes/pkg/scheduler',
      'k8s.io/client-go/tools/leaderelection',
      'k8s.io/kubernetes/pkg/scheduler/internal/queue',
      '',
    ]);
    expect(groups.get('')!.every((v) => v.type === 'fold')).toBe(true);
  });

  it('groups by file, or not at all', () => {
    const graph = foldTrace(schedulerTrace(), 60);
    expect([...clusterVertices(graph.vertices, 'file').keys()]).toContain(
      'pkg/scheduler/schedule_one.go',
    );
    expect([...clusterVertices(graph.vertices, 'none').keys()]).toEqual(['']);
  });
});

/**
 * expandProgram's `below`: a controller's trace keeps main's way to the start function and expands
 * only what runs below it once that is reached, never stopping at the hop where it is only
 * registered.
 */
import { describe, expect, it } from 'vitest';
import type { DefinitionRow, EdgeRow } from '../../src/store/symbols.js';
import { expandProgram, type GraphSource } from '../../src/trace/program-graph.js';
import { programScope } from '../../src/trace/program-scope.js';

const names = [
  'main',
  'register',
  'run',
  'start',
  'sync',
  'write',
  'other',
  'deep',
  'deeper',
  'deepest',
];
const sym = (name: string): DefinitionRow => ({
  id: names.indexOf(name) + 1,
  symbol: `example.com/p.${name}`,
  name,
  kind: 'func',
  file: 'p/p.go',
  line: names.indexOf(name) + 1,
  endLine: names.indexOf(name) + 1,
  col: 0,
  package: 'example.com/p',
  detail: null,
  doc: null,
});
const edge = (from: string, to: string, via: string | null = null): EdgeRow => ({
  caller: sym(from).id,
  callee: sym(to).id,
  kind: via ? 'framework' : 'static',
  via,
  rank: 0,
  file: 'p/p.go',
  line: sym(from).line,
  col: names.indexOf(to),
  expr: null,
});
// main registers start (one level away) and runs it (three levels away); beside it, other code
// goes deeper than start's own calls.
const edges = [
  edge('main', 'register'),
  edge('register', 'start', 'map-register'),
  edge('main', 'run'),
  edge('run', 'other'),
  edge('other', 'start'),
  edge('start', 'sync'),
  edge('sync', 'write'),
  edge('main', 'deep'),
  edge('deep', 'deeper'),
  edge('deeper', 'deepest'),
];
const source: GraphSource = {
  symbolsByIds: async (ids) => ids.map((id) => sym(names[id - 1]!)),
  edgesFrom: async (ids) => edges.filter((e) => ids.includes(e.caller)),
  bindingsFrom: async () => [],
  bindingsInto: async () => [],
  madeBy: async () => [],
};

async function expanded(below: boolean): Promise<string[]> {
  const program = await expandProgram(source, sym('main'), {
    scope: programScope([], ['example.com/p']),
    depth: 25,
    expandable: () => true,
    hidden: () => false,
    ...(below ? { below: { target: (s) => s.name === 'start', ignoreVia: ['map-register'] } } : {}),
  });
  return [...new Set(program.nodes.filter((n) => n.expanded).map((n) => n.sym.name))].sort();
}

describe('expandProgram below a target', () => {
  it('expands everything without it', async () => {
    expect(await expanded(false)).toEqual([...names].sort());
  });

  it('stops expanding code beside the target once the way where it runs reaches it', async () => {
    // `deepest` is past the level at which run -> other -> start arrives; start's own calls go on.
    // The registry hop (register -> start) one level earlier does not count as reaching it.
    expect(await expanded(true)).toEqual(
      ['deep', 'deeper', 'main', 'other', 'register', 'run', 'start', 'sync', 'write'].sort(),
    );
  });
});

/**
 * The rows a trace reads in bulk are built field by field from their columns' values: each
 * field takes the value of the column of its own name, and no other.
 */
import { describe, expect, it } from 'vitest';
import type { RowShape } from '../../src/store/db.js';
import { BINDING_ROW, DEFINITION_ROW, EDGE_ROW } from '../../src/store/symbols.js';

function expectByName<T>(shape: RowShape<T>): void {
  // Each column's value is its own name: a field built from another column shows it.
  const row = shape.build([...shape.columns]) as Record<string, unknown>;
  expect(row).toEqual(Object.fromEntries(shape.columns.map((c) => [c, c])));
  expect(Object.keys(row)).toEqual([...shape.columns]);
}

describe('row shapes', () => {
  it('build a symbol, an edge and a binding from the values of their own columns', () => {
    expectByName(DEFINITION_ROW);
    expectByName(EDGE_ROW);
    expectByName(BINDING_ROW);
  });
});

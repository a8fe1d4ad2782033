import { describe, expect, it } from 'vitest';
import {
  Indexer,
  NamespaceIndex,
  ThreadSafeStore,
  metaNamespaceIndexFunc,
} from '../../src/twins/indexer.js';
import type { Pod } from '../../src/twins/objects.js';
import { pod } from './harness.js';

const byNode = (obj: unknown) => ((obj as Pod).spec.nodeName ? [(obj as Pod).spec.nodeName!] : []);

describe('Indexer', () => {
  it('answers ByIndex on the namespace index with exactly the objects of that namespace', () => {
    const indexer = new Indexer(undefined, { [NamespaceIndex]: metaNamespaceIndexFunc });
    indexer.add(pod('a'));
    indexer.add(pod('b', { namespace: 'kube-system' }));
    indexer.add(pod('c'));
    expect(indexer.indexKeys(NamespaceIndex, 'default').sort()).toEqual(['default/a', 'default/c']);
    expect(
      indexer.byIndex(NamespaceIndex, 'kube-system').map((o) => (o as Pod).metadata.name),
    ).toEqual(['b']);
  });

  it('moves a key between index values when an update changes them', () => {
    const indexer = new Indexer(undefined, { node: byNode });
    indexer.add(pod('a', { nodeName: 'n1' }));
    indexer.update(pod('a', { nodeName: 'n2' }));
    expect(indexer.indexKeys('node', 'n1')).toEqual([]);
    expect(indexer.indexKeys('node', 'n2')).toEqual(['default/a']);
  });

  it('drops an index value once its last key is gone, so high-churn values do not leak', () => {
    const indexer = new Indexer(undefined, { node: byNode });
    indexer.add(pod('a', { nodeName: 'n1' }));
    indexer.add(pod('b', { nodeName: 'n2' }));
    indexer.delete(pod('a', { nodeName: 'n1' }));
    expect(indexer.listIndexFuncValues('node')).toEqual(['n2']);
  });

  it('finds the objects that share an index value with a given object', () => {
    const indexer = new Indexer(undefined, { node: byNode });
    indexer.add(pod('a', { nodeName: 'n1' }));
    indexer.add(pod('b', { nodeName: 'n1' }));
    indexer.add(pod('c', { nodeName: 'n2' }));
    expect(
      indexer
        .index('node', pod('x', { nodeName: 'n1' }))
        .map((o) => (o as Pod).metadata.name)
        .sort(),
    ).toEqual(['a', 'b']);
  });

  it('rebuilds every index on Replace', () => {
    const indexer = new Indexer(undefined, { node: byNode });
    indexer.add(pod('old', { nodeName: 'n1' }));
    indexer.replace([pod('a', { nodeName: 'n2' })], '9');
    expect(indexer.listKeys()).toEqual(['default/a']);
    expect(indexer.listIndexFuncValues('node')).toEqual(['n2']);
  });

  it('refuses an unknown index name and new indexers once it holds objects', () => {
    const store = new ThreadSafeStore({});
    expect(() => store.byIndex('nope', 'x')).toThrow('Index with name nope does not exist');
    store.add('default/a', pod('a'));
    expect(() => store.addIndexers({ node: byNode })).toThrow(
      'cannot add indexers to running index',
    );
  });
});

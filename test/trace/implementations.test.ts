/**
 * `impls` lists the implementations of an interface and the stores into fields and variables
 * whose declared type is that interface, whatever the stored value's own type, and only those.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { implementations } from '../../src/trace/queries.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { projectRoot } from '../helpers/run-cli.js';

/** The implementations of an interface of package `pkg`, by their names in that package. */
function implementationsIn(index: IndexedFixture, pkg: string) {
  return async (name: string) =>
    (
      await implementations({ store: index.store, treeId: index.treeId }, `${pkg}.${name}`)
    ).implementations.map((i) => i.type.replace(`${pkg}.`, ''));
}

describe('impls', () => {
  let index: IndexedFixture;
  beforeAll(async () => {
    index = await indexFixture(path.join(projectRoot, 'fixtures', 'go', 'test-double-beside-real'));
  });
  afterAll(() => index?.close());

  it('lists the stores into a field of the interface type, an interface-typed value included', async () => {
    const r = await implementations(
      { store: index.store, treeId: index.treeId },
      'example.com/test-double-beside-real/pkg/kubelet/container.Runtime',
    );
    expect(r.implementations.map((i) => i.type).sort()).toEqual([
      'example.com/test-double-beside-real/pkg/kubelet/container/testing.FakeRuntime',
      'example.com/test-double-beside-real/pkg/kubelet/kuberuntime.kubeGenericRuntimeManager',
    ]);
    expect(r.stores.map((s) => `${s.field} = ${s.expr}`)).toEqual([
      'example.com/test-double-beside-real/pkg/kubelet.Kubelet.containerRuntime = runtime',
    ]);
  });
});

describe('impls by signature', () => {
  let index: IndexedFixture;
  beforeAll(async () => {
    index = await indexFixture(
      path.join(projectRoot, 'fixtures', 'go', 'implementations-by-signature'),
    );
  });
  afterAll(() => index?.close());

  // The checks of one type's method are kept across interfaces: each interface still compares
  // them with its own signature and its own other methods.
  it('lists for each interface the types whose methods have its signatures, whatever was asked before', async () => {
    const of = implementationsIn(index, 'example.com/implementations-by-signature');
    expect(await of('PodGetter')).toEqual(['podCache', 'podLister']);
    expect(await of('ExampleGetter')).toEqual(['exampleLister']);
    expect(await of('PodLister')).toEqual(['podLister']);
  });
});

describe('impls of interfaces that embed error', () => {
  let index: IndexedFixture;
  beforeAll(async () => {
    index = await indexFixture(path.join(projectRoot, 'fixtures', 'go', 'interface-embeds-error'));
  });
  afterAll(() => index?.close());

  // Error is one of their methods; a method a type has from an interface it embeds is compared
  // with the signature that interface declares (wrapped's Code returns a string).
  it('asks for Error, and for the signature of a method from an embedded interface', async () => {
    const of = implementationsIn(index, 'example.com/interface-embeds-error');
    expect(await of('Aggregate')).toEqual(['aggregate']);
    expect(await of('CodedError')).toEqual(['apiError']);
  });
});

/**
 * The name `trace` and `controllers` take for a component: its own name, else the directory of
 * its main package, as the reader sees it in the tree.
 */
import { describe, expect, it } from 'vitest';
import { componentListing, lookupComponent } from '../../src/trace/component-lookup.js';
import type { ComponentEntry } from '../../src/trace/trace-component.js';
import type { DefinitionRow } from '../../src/store/symbols.js';

const entry = (name: string, file: string): ComponentEntry => ({
  name,
  main: { symbol: `${name}.main`, file } as DefinitionRow,
});

const components = [
  entry('kube-controller-manager', 'cmd/kube-controller-manager/controller-manager.go'),
  // cert-manager: cmd/controller is the module github.com/cert-manager/cert-manager/controller-binary.
  entry('controller-binary', 'cmd/controller/main.go'),
  entry('webhook-binary', 'cmd/webhook/main.go'),
  entry('server', 'server/main.go'),
];

describe('lookupComponent', () => {
  it('finds a component by its name, with what follows the slash', () => {
    expect(lookupComponent(components, 'kube-controller-manager')?.entry.name).toBe(
      'kube-controller-manager',
    );
    expect(lookupComponent(components, 'kube-controller-manager/replicaset')).toEqual({
      entry: components[0],
      rest: 'replicaset',
    });
  });

  it('finds a component named otherwise by its cmd/ directory, whole or by its last element', () => {
    expect(lookupComponent(components, 'controller')?.entry.name).toBe('controller-binary');
    expect(lookupComponent(components, 'cmd/controller')).toEqual({ entry: components[1] });
    expect(lookupComponent(components, 'cmd/webhook/')?.entry.name).toBe('webhook-binary');
    expect(lookupComponent(components, 'webhook/part')).toEqual({
      entry: components[2],
      rest: 'part',
    });
  });

  it('finds nothing for a name no component or directory has', () => {
    expect(lookupComponent(components, 'cainjector')).toBeUndefined();
    expect(lookupComponent(components, 'cmd')).toBeUndefined();
    // Only a cmd/<name> directory answers by its last element.
    expect(
      lookupComponent([entry('etcd', 'tools/etcd-dump/main.go')], 'etcd-dump'),
    ).toBeUndefined();
  });

  it('does not guess between two directories of one name', () => {
    const two = [entry('a-binary', 'x/cmd/tool/main.go'), entry('b-binary', 'y/cmd/tool/main.go')];
    expect(lookupComponent(two, 'tool')).toBeUndefined();
    expect(lookupComponent(two, 'y/cmd/tool')?.entry.name).toBe('b-binary');
  });
});

describe('componentListing', () => {
  it('shows the directory beside a name it does not say', () => {
    expect(componentListing(components)).toBe(
      [
        'controller-binary  (cmd/controller)',
        'kube-controller-manager',
        'server',
        'webhook-binary  (cmd/webhook)',
      ].join('\n  '),
    );
    expect(componentListing([])).toBe('(none: no main packages found)');
  });
});

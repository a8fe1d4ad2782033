/**
 * What a main package is called as a component: the name `trace` takes and lists.
 */
import { describe, expect, it } from 'vitest';
import { componentName } from '../../src/trace/store-graph.js';

describe('componentName', () => {
  it('names a cmd/ package by the path under cmd/', () => {
    expect(componentName('k8s.io/kubernetes/cmd/kube-scheduler')).toBe('kube-scheduler');
    expect(componentName('github.com/prometheus/prometheus/cmd/promtool')).toBe('promtool');
  });

  it('names another main package by its last path element', () => {
    expect(componentName('k8s.io/sample-controller')).toBe('sample-controller');
    expect(componentName('go.etcd.io/etcd/v3/tools/benchmark')).toBe('benchmark');
  });

  it('skips a major-version suffix, so modules of one repository keep names of their own', () => {
    expect(componentName('go.etcd.io/etcd/server/v3')).toBe('server');
    expect(componentName('go.etcd.io/etcd/etcdctl/v3')).toBe('etcdctl');
    expect(componentName('go.etcd.io/etcd/etcdutl/v3')).toBe('etcdutl');
    expect(componentName('go.etcd.io/etcd/v3')).toBe('etcd');
    // A last element that only starts with v and digits is a name.
    expect(componentName('example.com/tools/v3x')).toBe('v3x');
  });
});

/**
 * rules/noise.yaml folds packages by import-path prefix. A prefix written for a dependency
 * (`github.com/prometheus`: client_golang's metrics, in Kubernetes) must not fold the code of the
 * repository being read when its own module falls under it (Prometheus itself).
 */
import { describe, expect, it } from 'vitest';
import { noisePackage } from '../../src/trace/trace-component.js';

const prefixes = [
  'github.com/prometheus',
  'k8s.io/klog',
  'k8s.io/kubernetes/pkg/scheduler/metrics',
];

describe('noisePackage', () => {
  it('folds every package under a prefix when no module is known', () => {
    const noise = noisePackage(prefixes, null);
    expect(noise('github.com/prometheus/prometheus/scrape')).toBe(true);
    expect(noise('github.com/prometheus/client_golang/prometheus')).toBe(true);
    expect(noise('k8s.io/klog/v2')).toBe(true);
    expect(noise('github.com/prometheus-community/x')).toBe(false);
    expect(noise('k8s.io/klogger')).toBe(false);
  });

  it("keeps the tree's own module when a prefix covers it, and folds the other modules under it", () => {
    const noise = noisePackage(prefixes, 'github.com/prometheus/prometheus');
    expect(noise('github.com/prometheus/prometheus')).toBe(false);
    expect(noise('github.com/prometheus/prometheus/scrape')).toBe(false);
    expect(noise('github.com/prometheus/common/version')).toBe(true);
    expect(noise('github.com/prometheus/client_golang/prometheus')).toBe(true);
    // A module whose path only begins with the same text is another module.
    expect(noise('github.com/prometheus/prometheus-extra/x')).toBe(true);
    expect(noise('k8s.io/klog/v2')).toBe(true);
  });

  it('still folds a prefix that names a part of the module', () => {
    const noise = noisePackage(prefixes, 'k8s.io/kubernetes');
    expect(noise('k8s.io/kubernetes/pkg/scheduler/metrics')).toBe(true);
    expect(noise('k8s.io/kubernetes/pkg/scheduler/metrics/resources')).toBe(true);
    expect(noise('k8s.io/kubernetes/pkg/scheduler')).toBe(false);
    expect(noise('github.com/prometheus/client_golang/prometheus')).toBe(true);
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  escapeModulePath,
  moduleCacheDir,
  modulePermalinkBase,
} from '../../src/index/module-versions.js';

describe('module versions', () => {
  it('spells capitals the way the module cache does', () => {
    expect(escapeModulePath('github.com/MakeNowJust/heredoc')).toBe(
      'github.com/!make!now!just/heredoc',
    );
    expect(escapeModulePath('k8s.io/client-go')).toBe('k8s.io/client-go');
    expect(moduleCacheDir('/c', 'github.com/Azure/go-autorest', 'v14.2.0+incompatible')).toBe(
      path.join('/c', 'github.com/!azure/go-autorest@v14.2.0+incompatible'),
    );
  });

  it('links a Kubernetes staging module at its tag on its published repository', () => {
    expect(modulePermalinkBase('k8s.io/client-go', { version: 'v0.31.0' })).toBe(
      'https://github.com/kubernetes/client-go/blob/v0.31.0',
    );
    expect(modulePermalinkBase('k8s.io/klog/v2', { version: 'v2.130.1' })).toBe(
      'https://github.com/kubernetes/klog/blob/v2.130.1',
    );
    expect(modulePermalinkBase('sigs.k8s.io/controller-runtime', { version: 'v0.19.0' })).toBe(
      'https://github.com/kubernetes-sigs/controller-runtime/blob/v0.19.0',
    );
  });

  it('links a pseudo-version at its commit', () => {
    for (const version of [
      'v0.0.0-20260701091136-6059079a9125',
      'v0.31.1-0.20260701091136-6059079a9125',
      'v1.0.0-rc.1.0.20260701091136-6059079a9125',
    ])
      expect(modulePermalinkBase('k8s.io/client-go', { version })).toBe(
        'https://github.com/kubernetes/client-go/blob/6059079a9125',
      );
  });

  it('links a module in a subdirectory at its prefixed tag, and a checkout at its commit', () => {
    expect(modulePermalinkBase('golang.org/x/tools/gopls', { version: 'v0.16.1' })).toBe(
      'https://github.com/golang/tools/blob/gopls/v0.16.1/gopls',
    );
    expect(
      modulePermalinkBase('github.com/Azure/go-autorest', { version: 'v14.2.0+incompatible' }),
    ).toBe('https://github.com/Azure/go-autorest/blob/v14.2.0');
    expect(modulePermalinkBase('k8s.io/client-go', { commit: 'abc123' })).toBe(
      'https://github.com/kubernetes/client-go/blob/abc123',
    );
  });

  it('gives no link when the module path does not name a repository', () => {
    expect(modulePermalinkBase('gopkg.in/yaml.v2', { version: 'v2.4.0' })).toBeNull();
    expect(modulePermalinkBase('go.uber.org/zap', { version: 'v1.27.0' })).toBeNull();
  });
});

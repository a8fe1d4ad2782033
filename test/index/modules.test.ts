import { describe, expect, it } from 'vitest';
import { buildModuleLayout, parseGoMod } from '../../src/index/modules.js';
import { defaultImportName } from '../../src/resolve/model.js';

const goMods = new Map([
  [
    '',
    'module k8s.io/kubernetes\n\ngo 1.18\n\nreplace (\n\tk8s.io/api => ./staging/src/k8s.io/api\n\tk8s.io/client-go => ./staging/src/k8s.io/client-go // in tree\n)\nreplace example.com/tool => ./hack/tool\n',
  ],
  ['staging/src/k8s.io/api', 'module k8s.io/api\n'],
  ['staging/src/k8s.io/client-go', 'module k8s.io/client-go\n'],
]);

describe('module layout', () => {
  const layout = buildModuleLayout(goMods, 'go 1.18\n\nuse (\n\t.\n\t./tools\n)\n');

  it('names directories after the root module', () => {
    expect(layout.rootModule).toBe('k8s.io/kubernetes');
    expect(layout.importPathOf('pkg/scheduler')).toBe('k8s.io/kubernetes/pkg/scheduler');
    expect(layout.importPathOf('')).toBe('k8s.io/kubernetes');
  });

  it('maps staging/src/k8s.io/<name> to k8s.io/<name> through its own go.mod', () => {
    expect(layout.importPathOf('staging/src/k8s.io/client-go/tools/cache')).toBe(
      'k8s.io/client-go/tools/cache',
    );
    expect(layout.importPathOf('staging/src/k8s.io/api')).toBe('k8s.io/api');
  });

  it('maps vendor/<path> to <path>', () => {
    expect(layout.importPathOf('vendor/github.com/spf13/cobra')).toBe('github.com/spf13/cobra');
  });

  it('honours an in-tree replace whose target has no go.mod of its own', () => {
    expect(layout.importPathOf('hack/tool/cmd')).toBe('example.com/tool/cmd');
  });

  it('reads module, go version and in-tree replaces from go.mod, ignoring comments', () => {
    const parsed = parseGoMod(goMods.get('')!);
    expect(parsed.module).toBe('k8s.io/kubernetes');
    expect(parsed.go).toBe('1.18');
    expect(parsed.replaces).toEqual([
      { from: 'k8s.io/api', to: './staging/src/k8s.io/api' },
      { from: 'k8s.io/client-go', to: './staging/src/k8s.io/client-go' },
      { from: 'example.com/tool', to: './hack/tool' },
    ]);
  });

  it('imports a package under its last element, without a major-version suffix', () => {
    expect(defaultImportName('k8s.io/klog/v2')).toBe('klog');
    expect(defaultImportName('gopkg.in/yaml.v2')).toBe('yaml');
    expect(defaultImportName('github.com/go-logr/logr')).toBe('logr');
  });
});

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

  it('reads requirements and module replacements, with and without versions', () => {
    const parsed = parseGoMod(
      [
        'module k8s.io/sample-controller',
        'go 1.22.0',
        'require k8s.io/klog/v2 v2.130.1',
        'require (',
        '\tk8s.io/api v0.31.0',
        '\tgithub.com/MakeNowJust/heredoc v1.0.0 // indirect',
        ')',
        'replace k8s.io/api v0.31.0 => k8s.io/api v0.31.1',
        'replace (',
        '\tgithub.com/MakeNowJust/heredoc => github.com/fork/heredoc v1.0.1',
        '\tk8s.io/client-go => ../client-go',
        '\tk8s.io/apimachinery => /src/apimachinery',
        ')',
      ].join('\n'),
    );
    expect(parsed.requires).toEqual([
      { path: 'k8s.io/api', version: 'v0.31.0' },
      { path: 'github.com/MakeNowJust/heredoc', version: 'v1.0.0' },
      { path: 'k8s.io/klog/v2', version: 'v2.130.1' },
    ]);
    expect(parsed.versionReplaces).toEqual([
      {
        from: 'github.com/MakeNowJust/heredoc',
        to: 'github.com/fork/heredoc',
        toVersion: 'v1.0.1',
      },
      { from: 'k8s.io/api', fromVersion: 'v0.31.0', to: 'k8s.io/api', toVersion: 'v0.31.1' },
    ]);
    // A path names a directory, relative or absolute, as the go command reads it.
    expect(parsed.replaces).toEqual([
      { from: 'k8s.io/client-go', to: '../client-go' },
      { from: 'k8s.io/apimachinery', to: '/src/apimachinery' },
    ]);
    // An absolute target maps no directory of the tree.
    const layout = buildModuleLayout(
      new Map([['sub', 'module example.com/sub\nreplace example.com/x => /x\n']]),
      undefined,
    );
    expect(layout.importPathOf('sub/x')).toBe('example.com/sub/x');
  });

  it('says how each directory’s path was found: go.mod, a comment, a root, vendor/, a dependency', () => {
    const mixed = buildModuleLayout(new Map([['tools', 'module example.com/tools\n']]), undefined, {
      exact: new Map([['pkg/a', { path: 'k8s.io/kubernetes/pkg/a', source: 'import comment' }]]),
      roots: [{ dir: '', path: 'k8s.io/kubernetes', source: 'Godeps.json' }],
      dependencies: [
        { dir: '_deps/k8s.io/client-go@v0.31.0', path: 'k8s.io/client-go', source: 'dependency' },
      ],
    });
    const seen = (dir: string) => [mixed.importPathOf(dir), mixed.sourceOf(dir)];
    expect(seen('tools/x')).toEqual(['example.com/tools/x', 'go.mod']);
    expect(seen('pkg/a')).toEqual(['k8s.io/kubernetes/pkg/a', 'import comment']);
    expect(seen('pkg/b')).toEqual(['k8s.io/kubernetes/pkg/b', 'Godeps.json']);
    expect(seen('vendor/github.com/spf13/cobra')).toEqual(['github.com/spf13/cobra', 'vendor']);
    expect(seen('_deps/k8s.io/client-go@v0.31.0/tools/cache')).toEqual([
      'k8s.io/client-go/tools/cache',
      'dependency',
    ]);
    // The root's own path names the tree, not the go.mod of a directory inside it.
    expect(mixed.rootModule).toBe('k8s.io/kubernetes');
  });

  it('imports a package under its last element, without a major-version suffix', () => {
    expect(defaultImportName('k8s.io/klog/v2')).toBe('klog');
    expect(defaultImportName('gopkg.in/yaml.v2')).toBe('yaml');
    expect(defaultImportName('github.com/go-logr/logr')).toBe('logr');
  });
});

import { describe, expect, it } from 'vitest';
import { readGoHeader, scanGoHeader } from '../../src/index/go-header.js';

const head = (text: string) => scanGoHeader(text).header;

describe('Go file heads', () => {
  it('reads the package clause and its import comment', () => {
    expect(
      head(
        '// Package cache keeps copies.\npackage cache // import "k8s.io/client-go/tools/cache"\n',
      ),
    ).toEqual({
      package: 'cache',
      importComment: 'k8s.io/client-go/tools/cache',
      imports: [],
      ignored: false,
    });
    expect(head('package app /* import "k8s.io/kubernetes/cmd/app" */\n').importComment).toBe(
      'k8s.io/kubernetes/cmd/app',
    );
  });

  it('takes no import comment from the next line or from an ordinary comment', () => {
    expect(head('package app\n// import "k8s.io/x"\n').importComment).toBeNull();
    expect(head('package app // see import "k8s.io/x"\n').importComment).toBeNull();
  });

  it('lists every import: grouped, single, aliased, dot, blank, raw strings, comments between', () => {
    const text = [
      '/* licence */',
      'package scheduler',
      '',
      'import "fmt"',
      'import (',
      '\t"context" // why',
      '\t/* a comment */ v1 "k8s.io/api/core/v1"',
      '\t. "k8s.io/kubernetes/pkg/util"',
      '\t_ "k8s.io/kubernetes/pkg/plugins"; utilruntime `k8s.io/apimachinery/pkg/util/runtime`',
      ')',
      'import klog "k8s.io/klog/v2"',
      '',
      'var _ = fmt.Sprintf',
      'import "never/read"',
    ].join('\n');
    expect(head(text).imports).toEqual([
      'fmt',
      'context',
      'k8s.io/api/core/v1',
      'k8s.io/kubernetes/pkg/util',
      'k8s.io/kubernetes/pkg/plugins',
      'k8s.io/apimachinery/pkg/util/runtime',
      'k8s.io/klog/v2',
    ]);
  });

  it('says when a build constraint above the package clause names the ignore tag', () => {
    expect(head('//go:build ignore\n\npackage main\n').ignored).toBe(true);
    expect(head('// +build linux,ignore\n\npackage main\n').ignored).toBe(true);
    expect(head('//go:build !ignore\n\npackage main\n').ignored).toBe(false);
    expect(head('//go:build linux\n\npackage main\n').ignored).toBe(false);
    expect(head('package main\n\n//go:build ignore\n').ignored).toBe(false);
  });

  it('has no package without a package clause, and reads a file whose imports end past 64 KiB', () => {
    expect(head('// just a comment\n').package).toBeNull();
    const padding = `/*${'x'.repeat(70 * 1024)}*/`;
    const text = `package big\n${padding}\nimport (\n\t"k8s.io/late"\n)\n`;
    expect(scanGoHeader(text.slice(0, 64 * 1024)).complete).toBe(false);
    expect(readGoHeader(Buffer.from(text)).imports).toEqual(['k8s.io/late']);
  });
});

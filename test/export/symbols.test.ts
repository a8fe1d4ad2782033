import { describe, expect, it } from 'vitest';
import { packageName, shortSymbol, splitSymbol } from '../../src/export/symbols.js';

describe('splitSymbol', () => {
  it('splits a function at the first dot after the last slash of its import path', () => {
    expect(splitSymbol('k8s.io/kubernetes/cmd/kube-scheduler/app.runCommand')).toEqual({
      package: 'k8s.io/kubernetes/cmd/kube-scheduler/app',
      local: 'runCommand',
      receiver: null,
      member: 'runCommand',
    });
  });

  it('splits a pointer-receiver method and keeps the pointer in the local name', () => {
    expect(splitSymbol('(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne')).toEqual({
      package: 'k8s.io/kubernetes/pkg/scheduler',
      local: '(*Scheduler).scheduleOne',
      receiver: 'Scheduler',
      member: 'scheduleOne',
    });
  });

  it('keeps the $N suffix of a function literal inside a method', () => {
    expect(splitSymbol('(k8s.io/apimachinery/pkg/util/sets.String).Insert$1').local).toBe(
      '(String).Insert$1',
    );
  });

  it('does not split inside type arguments that carry paths of their own', () => {
    expect(splitSymbol('(*k8s.io/x/cache.Store[k8s.io/api/core/v1.Pod]).Add')).toMatchObject({
      package: 'k8s.io/x/cache',
      receiver: 'Store',
      local: '(*Store[k8s.io/api/core/v1.Pod]).Add',
    });
  });

  it('leaves a symbol without a package path whole', () => {
    expect(splitSymbol('main')).toMatchObject({ package: '', local: 'main' });
  });
});

describe('shortSymbol', () => {
  it('drops the package inside the same package', () => {
    expect(
      shortSymbol(
        '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).bind',
        'k8s.io/kubernetes/pkg/scheduler',
      ),
    ).toBe('(*Scheduler).bind');
  });

  it('qualifies by package name elsewhere, as Go source would write it', () => {
    expect(
      shortSymbol(
        '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).bind',
        'k8s.io/kubernetes/cmd/kube-scheduler/app',
      ),
    ).toBe('(*scheduler.Scheduler).bind');
    expect(shortSymbol('k8s.io/client-go/tools/leaderelection.RunOrDie')).toBe(
      'leaderelection.RunOrDie',
    );
  });
});

describe('packageName', () => {
  it('skips major-version suffixes', () => {
    expect(packageName('k8s.io/klog/v2')).toBe('klog');
    expect(packageName('gopkg.in/yaml.v2')).toBe('yaml');
  });
});

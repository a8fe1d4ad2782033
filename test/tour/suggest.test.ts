import { describe, expect, it } from 'vitest';
import { editDistance, similarity, suggestSymbols } from '../../src/tour/suggest.js';
import { symbolParts } from '../../src/shared/go-symbol.js';
import { memoryIndex } from './sample-index.js';

const at = { file: 'x.go', line: 1, endLine: 2 };

describe('suggestions for a symbol that moved or was renamed', () => {
  it('finds the renamed method on the same type first', async () => {
    const index = memoryIndex(
      [
        {
          symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod',
          kind: 'method',
          ...at,
        },
        { symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).Run', kind: 'method', ...at },
        { symbol: 'k8s.io/kubernetes/pkg/scheduler.selectHost', kind: 'func', ...at },
      ],
      {},
    );
    expect(
      await suggestSymbols(index, ['(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedule']),
    ).toEqual(['(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod']);
  });

  it('finds the same name moved to another package', async () => {
    const index = memoryIndex(
      [
        {
          symbol: '(*k8s.io/client-go/tools/cache.storeIndex).updateIndices',
          kind: 'method',
          ...at,
        },
      ],
      {},
    );
    expect(
      await suggestSymbols(index, ['(*k8s.io/client-go/tools/cache.threadSafeMap).updateIndices']),
    ).toEqual(['(*k8s.io/client-go/tools/cache.storeIndex).updateIndices']);
  });

  it('suggests nothing rather than something unrelated', async () => {
    const index = memoryIndex(
      [{ symbol: 'k8s.io/kubernetes/pkg/kubelet.NewMainKubelet', kind: 'func', ...at }],
      {},
    );
    expect(
      await suggestSymbols(index, ['(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne']),
    ).toEqual([]);
  });

  it('does not offer closures for a named function', async () => {
    const index = memoryIndex(
      [{ symbol: 'k8s.io/kubernetes/pkg/scheduler.New$1', kind: 'closure', ...at }],
      {},
    );
    expect(await suggestSymbols(index, ['k8s.io/kubernetes/pkg/scheduler.New'])).toEqual([]);
  });
});

describe('similarity', () => {
  it('ranks the same receiver above another one for the same method name', () => {
    const wanted = symbolParts('(*k8s.io/kubernetes/pkg/scheduler.Scheduler).bind');
    expect(
      similarity(wanted, symbolParts('(*k8s.io/kubernetes/pkg/scheduler.Scheduler).bind')),
    ).toBeGreaterThan(
      similarity(wanted, symbolParts('(*k8s.io/kubernetes/pkg/scheduler.Extender).bind')),
    );
  });

  it('ignores the type parameters of a generic receiver', () => {
    expect(symbolParts('(*k8s.io/client-go/util/workqueue.Typed[T]).Add')).toMatchObject({
      package: 'k8s.io/client-go/util/workqueue',
      receiver: 'Typed',
      name: 'Add',
    });
  });

  it('counts edits between names', () => {
    expect(editDistance('schedule', 'schedulePod')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

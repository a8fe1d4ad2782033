import { describe, expect, it } from 'vitest';
import { Mainline } from '../../src/git/mainline.js';

/** A readable graph: `sha: parents` per entry, turned into `git rev-list --parents` output. */
function revList(graph: Record<string, string[]>): string {
  const id = (name: string) => name.padEnd(40, '0');
  return Object.entries(graph)
    .map(([sha, parents]) => [sha, ...parents].map(id).join(' '))
    .join('\n');
}
const sha = (name: string) => name.padEnd(40, '0');

describe('Mainline', () => {
  // Main line a <- m1 <- d <- m2 (HEAD). m1 merges branch b1 <- b2; m2 merges c1, which merged
  // b2 again (an old commit reached by a newer merge too) and has its own commit c0.
  const graph = {
    m2: ['d', 'c1'],
    c1: ['c0', 'b2'],
    c0: ['b2'],
    d: ['m1'],
    m1: ['a', 'b2'],
    b2: ['b1'],
    b1: ['a'],
    a: [],
  };
  const mainline = Mainline.fromRevList(revList(graph), sha('m2'));

  it('walks the first-parent chain from HEAD', () => {
    expect(mainline.chain).toEqual(['m2', 'd', 'm1', 'a'].map(sha));
  });

  it('answers a main-line commit with itself', () => {
    expect(mainline.introducedBy(sha('d'))).toBe(sha('d'));
    expect(mainline.introducedBy(sha('a'))).toBe(sha('a'));
  });

  it('answers a branch commit with the oldest main-line merge that contains it, not a newer one that also does', () => {
    expect(mainline.introducedBy(sha('b1'))).toBe(sha('m1'));
    expect(mainline.introducedBy(sha('b2'))).toBe(sha('m1'));
  });

  it('answers commits of a branch that merged another branch with the merge that brought them in', () => {
    expect(mainline.introducedBy(sha('c0'))).toBe(sha('m2'));
    expect(mainline.introducedBy(sha('c1'))).toBe(sha('m2'));
  });

  it('knows nothing of commits HEAD does not contain', () => {
    expect(mainline.introducedBy(sha('zz'))).toBeUndefined();
  });

  it('gives main-line positions from HEAD', () => {
    expect(mainline.positionOf(sha('m2'))).toBe(0);
    expect(mainline.positionOf(sha('m1'))).toBe(2);
    expect(mainline.positionOf(sha('b1'))).toBeUndefined();
  });

  it('stops the chain where a shallow clone stops the history', () => {
    const shallow = Mainline.fromRevList(revList({ m2: ['d', 'c1'], c1: [], d: [] }), sha('m2'));
    expect(shallow.chain).toEqual(['m2', 'd'].map(sha));
    expect(shallow.introducedBy(sha('c1'))).toBe(sha('m2'));
  });
});

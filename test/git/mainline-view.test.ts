import { afterAll, describe, expect, it, vi } from 'vitest';
import { openMainlineView } from '../../src/git/mainline-view.js';
import { GitRepository } from '../../src/git/repository.js';
import type { Store } from '../../src/store/db.js';
import { openGitCache, readMainlineHead } from '../../src/store/git-cache.js';
import {
  createHistoryRepo,
  head,
  mergePullRequest,
  numberedLines,
  setLine,
} from '../helpers/git-history.js';

const repo = createHistoryRepo({ 'a.go': numberedLines(9) });
const edit = (n: number) => () => setLine(repo, 'a.go', n, `changed ${n}`);
const pr = (number: number, line: number) =>
  mergePullRequest(repo, {
    number,
    title: `PR ${number}`,
    branch: `b${number}`,
    commits: [{ message: `Change ${line}`, change: edit(line) }],
  });

const stores: Store[] = [];
afterAll(async () => Promise.all(stores.map((s) => s.close())));

/** Opens the view through a fresh GitRepository and reports the git commands it ran. */
async function view(cache: Store) {
  const git = await GitRepository.open(repo.root);
  const headSha = await git.head();
  const run = vi.spyOn(git, 'run');
  const tryRun = vi.spyOn(git, 'tryRun');
  const opened = await openMainlineView(git, headSha, cache);
  const calls = (spy: typeof run | typeof tryRun) =>
    spy.mock.calls.map(([args], i) => ({ order: spy.mock.invocationCallOrder[i] ?? 0, args }));
  const commands = () =>
    [...calls(run), ...calls(tryRun)]
      .sort((a, b) => a.order - b.order)
      .map((c) => c.args.join(' '));
  return { opened, commands };
}

describe('openMainlineView with a cache', () => {
  it('reads the graph once, then answers a new process from the stored main line', async () => {
    const cache = await openGitCache(':memory:');
    stores.push(cache);
    const first = pr(1, 1);
    const cold = await view(cache);
    expect(cold.commands()).toEqual([`rev-list --parents ${head(repo)}`]);
    expect(await readMainlineHead(cache)).toEqual({ head: head(repo), depth: 1 });

    const warm = await view(cache);
    expect(await warm.opened.introducers([first.commits[0] as string, repo.first])).toEqual(
      new Map([
        [first.commits[0], first.merge],
        [repo.first, repo.first],
      ]),
    );
    expect(warm.commands()).toEqual([]);
  });

  it('extends the stored main line with only the commits that arrived since', async () => {
    const cache = await openGitCache(':memory:');
    stores.push(cache);
    const older = pr(2, 2);
    await view(cache);
    const recorded = head(repo);
    const newer = pr(3, 3);
    const newest = pr(4, 4);

    const extended = await view(cache);
    expect(extended.commands()).toEqual([`rev-list --parents ${head(repo)} ^${recorded}`]);
    expect(
      await extended.opened.introducers([
        older.commits[0] as string,
        newer.commits[0] as string,
        newest.commits[0] as string,
      ]),
    ).toEqual(
      new Map([
        [older.commits[0], older.merge],
        [newer.commits[0], newer.merge],
        [newest.commits[0], newest.merge],
      ]),
    );
    expect(await extended.opened.above(older.merge, 5)).toEqual([newer.merge, newest.merge]);
  });

  it('replaces the stored main line when HEAD is on another line, and keeps it when HEAD went back along it', async () => {
    const cache = await openGitCache(':memory:');
    stores.push(cache);
    const base = head(repo);
    await view(cache);

    // A release branch forked from an older main-line commit, with a cherry pick of its own.
    repo.git('checkout', '-q', '-b', 'release', `${base}~1`);
    const pick = pr(5, 9);
    const other = await view(cache);
    expect(other.commands()).toEqual([
      `rev-list --parents ${head(repo)} ^${base}`,
      `rev-list --parents ${head(repo)}`,
    ]);
    expect(await other.opened.introducers([pick.commits[0] as string])).toEqual(
      new Map([[pick.commits[0], pick.merge]]),
    );
    expect((await readMainlineHead(cache))?.head).toBe(pick.merge);

    repo.git('checkout', '-q', '--detach', `${pick.merge}~1`);
    const back = await view(cache);
    expect(back.commands()).toEqual([`rev-list --parents ${head(repo)} ^${pick.merge}`]);
    expect(await back.opened.above(head(repo), 5)).toEqual([]);
    repo.git('checkout', '-q', 'main');
  });
});

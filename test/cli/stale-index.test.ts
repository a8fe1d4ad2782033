/**
 * A command on an index older than the checkout's HEAD says so in one line, and goes on; on an
 * index of HEAD it says nothing. (HEAD is asked of git while the index opens.) The same for an
 * index linked by another version of k8s-read: it answers as that version did until `index`.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { execSql } from '../helpers/sqlite-file.js';
import { commitProxyFixture } from '../helpers/proxy-fixture.js';
import { createTempRepo } from '../helpers/temp-repo.js';

const repo = createTempRepo('k8s-read-stale-');
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

describe('an index older than HEAD', () => {
  it('is named with both commits, once HEAD has moved, and the answer still comes', async () => {
    const indexed = commitProxyFixture(repo);
    const db = path.join(repo.root, '..', `${path.basename(repo.root)}.sqlite`);
    const args = ['--repo', repo.root, '--db', db];
    expect((await runCli(['index', ...args])).code).toBe(0);

    const fresh = await runCli(['trace', 'kube-proxy', ...args]);
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).not.toContain('warning');

    const moved = repo.commit('nothing changed but the commit');
    const stale = await runCli(['trace', 'kube-proxy', ...args]);
    expect(stale.code).toBe(0);
    expect(stale.stdout).toContain('SyncLoop');
    expect(stale.stderr).toContain(
      `warning: the index is of ${indexed.slice(0, 12)} but HEAD is ${moved.slice(0, 12)}; run \`k8s-read index\` to refresh it`,
    );
    rmSync(db, { force: true });
  });

  it('an index linked by another version of k8s-read is named, until index links it again', async () => {
    const db = path.join(repo.root, '..', `${path.basename(repo.root)}-linker.sqlite`);
    const args = ['--repo', repo.root, '--db', db];
    expect((await runCli(['index', ...args])).code).toBe(0);
    expect((await runCli(['trace', 'kube-proxy', ...args])).stderr).not.toContain('linked by');

    // What an older k8s-read left: its link named otherwise (or not at all, before names).
    await execSql(
      db,
      "UPDATE trees SET summary = json_set(summary, '$.linker', 'link 1 facts 1 rules 0')",
    );
    const stale = await runCli(['trace', 'kube-proxy', ...args]);
    expect(stale.code).toBe(0);
    expect(stale.stdout).toContain('SyncLoop');
    expect(stale.stderr).toContain(
      'warning: the index was linked by another version of k8s-read; run `k8s-read index` to link it again',
    );

    const relinked = await runCli(['index', ...args, '-o', 'json']);
    expect(relinked.code).toBe(0);
    expect((await runCli(['trace', 'kube-proxy', ...args])).stderr).not.toContain('linked by');
    rmSync(db, { force: true });
  });
});

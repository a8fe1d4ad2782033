/**
 * A command on an index older than the checkout's HEAD says so in one line, and goes on; on an
 * index of HEAD it says nothing. (HEAD is asked of git while the index opens.)
 */
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot, runCli } from '../helpers/run-cli.js';
import { createTempRepo } from '../helpers/temp-repo.js';

const repo = createTempRepo('k8s-read-stale-');
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

describe('an index older than HEAD', () => {
  it('is named with both commits, once HEAD has moved, and the answer still comes', async () => {
    cpSync(path.join(projectRoot, 'fixtures', 'go', 'func-field-per-path'), repo.root, {
      recursive: true,
    });
    const indexed = repo.commit('a proxier with two runners');
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
});

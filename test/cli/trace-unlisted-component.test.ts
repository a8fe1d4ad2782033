/**
 * A component that rules/components.yaml does not describe (a daemon outside Kubernetes: cri-o's
 * code lives in server/ and internal/, not under cmd/crio) has its default view read the whole
 * repository's own code, not only its main package's directory.
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-unlisted-');

describe('the default view of a component no rule describes', () => {
  it('expands the functions of the repository outside its cmd/ directory', async () => {
    const repo = path.join(tmp, 'repo');
    cpSync(path.join(projectRoot, 'fixtures', 'go', 'field-set-after-construction'), repo, {
      recursive: true,
    });
    const db = path.join(tmp, 'unlisted.sqlite');
    const r = await runCli(['trace', 'one', '--repo', repo, '--db', db, '-o', 'json'], {
      env: { XDG_CACHE_HOME: path.join(tmp, 'cache'), HOME: tmp },
    });
    expect(r.code, r.stderr).toBe(0);
    const trace = JSON.parse(r.stdout) as { edges: { caller: string; callee: string }[] };
    const mod = 'example.com/field-set-after-construction';
    // lib/cli's Command.Run is expanded into the action program one set, and on into its code.
    expect(trace.edges.map((e) => `${e.caller} -> ${e.callee}`)).toEqual(
      expect.arrayContaining([
        `(*${mod}/lib/cli.Command).Run -> ${mod}/cmd/one.main$1`,
        `(*${mod}/lib/cli.App).Run -> (*${mod}/lib/cli.Command).Run`,
      ]),
    );
  });
});

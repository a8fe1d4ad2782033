/**
 * A tree is indexed again as it was last indexed (vendor/, tests, the size limit, rules, `--with`)
 * unless a flag says otherwise, and the run says what it kept: a plain `index` after a `trace`
 * that indexed sample-controller's vendor/ must not drop it.
 */
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { settleChoices } from '../../src/cli/index-choices.js';
import { Store } from '../../src/store/db.js';
import { isolatedEnv, projectRoot, runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-choices-');
const vendored = path.join(projectRoot, 'fixtures', 'sample-controller');
const app = path.join(projectRoot, 'fixtures', 'modcache', 'sample-controller');
const clientGoInCache = path.join(
  projectRoot,
  'fixtures',
  'modcache',
  'gopath',
  'pkg',
  'mod',
  'k8s.io',
  'client-go@v0.31.0',
);
const env = isolatedEnv(tmp);

describe('index, a second time', () => {
  const db = path.join(tmp, 'vendored.sqlite');
  const args = ['--repo', vendored, '--db', db];

  it("keeps the vendor/ that a command's first index took in, and links nothing again", async () => {
    const first = await runCli(['def', 'NewController', ...args], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(
      'note: indexing vendor/ too: this module keeps its libraries there\n',
    );
    const again = await runCli(['index', ...args], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^indexed 78 files \(0 parsed, 78 unchanged\)/);
    expect(again.stdout).toContain('  calls: as linked before (no file the link reads changed)\n');
    expect(again.stdout).toContain('  dependencies: vendor/ (3 modules in vendor/modules.txt)\n');
    // The default, followed again: nothing to say.
    expect(again.stderr).toBe('');
  });

  it('leaves vendor/ out when told, and keeps it out, saying so and how to undo it', async () => {
    const out = await runCli(['index', ...args, '--no-include-vendor'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^indexed 16 files /);
    expect(out.stdout).toContain(
      '  dependencies: in vendor/, not indexed (--include-vendor indexes them)\n',
    );
    const again = await runCli(['index', ...args], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^indexed 16 files \(0 parsed, 16 unchanged\)/);
    expect(again.stderr).toBe(
      'note: indexing as this tree was indexed before: --no-include-vendor (--include-vendor to change it)\n',
    );
    const stats = await runCli(['stats', ...args], { env });
    expect(stats.stdout).toContain(` into ${db} with --no-include-vendor\n`);
    const back = await runCli(['index', ...args, '--include-vendor'], { env });
    expect(back.stdout).toMatch(/^indexed 78 files /);
    expect(back.stderr).toBe('');
  });

  it('keeps the choices through --rebuild', async () => {
    const tests = await runCli(['index', ...args, '--max-file-size', '4000'], { env });
    expect(tests.code, tests.stderr).toBe(0);
    const skipped = Number(/(\d+) too large/.exec(tests.stderr)?.[1]);
    expect(skipped).toBeGreaterThan(0);
    const rebuilt = await runCli(['index', ...args, '--rebuild'], { env });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toContain(
      'note: indexing as this tree was indexed before: --max-file-size 4000 (--max-file-size <bytes> to change it)\n',
    );
    expect(rebuilt.stderr).toContain(`${skipped} too large (skipped)`);
    expect(rebuilt.stdout).toMatch(/^indexed 78 files /);
  });

  it('keeps the choices when an index of another schema is rebuilt', async () => {
    const older = path.join(tmp, 'older-schema.sqlite');
    const args = ['--repo', vendored, '--db', older];
    const out = await runCli(['index', ...args, '--no-include-vendor'], { env });
    expect(out.code, out.stderr).toBe(0);
    const store = await Store.open(older);
    await store.run("UPDATE meta SET value = '1' WHERE key = 'schema_version'");
    await store.close();
    const again = await runCli(['index', ...args], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('had schema version 1; rebuilding it\n');
    expect(again.stderr).toContain(
      'note: indexing as this tree was indexed before: --no-include-vendor (--include-vendor to change it)\n',
    );
    expect(again.stdout).toMatch(/^indexed 16 files \(16 parsed, 0 unchanged\)/);
  });
});

describe('--with, kept with the index', () => {
  const clientGo = path.join(tmp, 'client-go');
  const db = path.join(tmp, 'with.sqlite');
  const args = ['--repo', app, '--db', db];

  it('reads the checkout again on a plain index, and forgets it with --no-with', async () => {
    cpSync(clientGoInCache, clientGo, { recursive: true });
    const first = await runCli(['index', ...args, '--with', clientGo], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('1 from --with');
    const again = await runCli(['index', ...args], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('  calls: as linked before (no file the link reads changed)\n');
    expect(again.stderr).toContain(
      `note: indexing as this tree was indexed before: --with ${clientGo} (--no-with to change it)\n`,
    );
    const def = await runCli(['def', 'ListAndWatch', ...args], { env });
    expect(def.stdout).toContain('_deps/k8s.io/client-go@local/tools/cache/reflector.go:');
    const without = await runCli(['index', ...args, '--no-with'], { env });
    expect(without.code, without.stderr).toBe(0);
    expect(without.stdout).not.toContain('from --with');
    expect(without.stderr).not.toContain('note: indexing as');
  });

  it('says when a command is given a checkout its index was made without', async () => {
    const r = await runCli(['def', 'NewController', ...args, '--with', clientGo], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `note: the index was made without ${clientGo}: --with is read when indexing; \`k8s-read index --with ${clientGo}\` indexes with it\n`,
    );
  });

  it('indexes without a kept checkout that is gone, and says so', async () => {
    const first = await runCli(['index', ...args, '--with', clientGo], { env });
    expect(first.code, first.stderr).toBe(0);
    rmSync(clientGo, { recursive: true });
    const r = await runCli(['index', ...args], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `note: ${clientGo}, which the last index read, is gone; indexing without it\n`,
    );
    expect(r.stdout).not.toContain('from --with');
  });
});

describe('settleChoices', () => {
  const plain = path.join(tmp, 'plain');
  writeFileSync(path.join(tmp, 'rules.yaml'), 'rules: []\n');

  it('takes a flag over what was kept, and what was kept over the default', () => {
    const kept = { includeTests: true, maxFileBytes: 10, rules: [path.join(tmp, 'rules.yaml')] };
    const settled = settleChoices({ maxFileBytes: 20 }, kept, plain);
    expect(settled.choices).toEqual({
      includeVendor: false,
      includeTests: true,
      maxFileBytes: 20,
      rules: [path.join(tmp, 'rules.yaml')],
      with: [],
    });
    expect(settled.kept.map((k) => k.flag)).toEqual([
      '--include-tests',
      `--rules ${path.join(tmp, 'rules.yaml')}`,
    ]);
    expect(settled.gone).toEqual([]);
  });

  it('drops a kept rules file that is gone, and says which', () => {
    const gone = path.join(tmp, 'gone.yaml');
    const settled = settleChoices({}, { rules: [gone] }, plain);
    expect(settled.choices.rules).toEqual([]);
    expect(settled.gone).toEqual([gone]);
    expect(settled.kept).toEqual([]);
  });
});

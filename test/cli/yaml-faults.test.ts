/**
 * Issue 14, case 5: a YAML alias bomb in a guide or a scenario is one line of error, not a stack
 * trace (and not minutes of work). A rules file's mistake is reported the same way.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { aliasBomb } from '../helpers/yaml-bomb.js';

const tmp = useTempDir('k8s-read-yaml-cli-');
const env = { XDG_CACHE_HOME: path.join(tmp, 'cache') };

describe('a YAML alias bomb', () => {
  it('in a guide is a usage error with its position', async () => {
    const guides = path.join(tmp, 'guides');
    mkdirSync(guides);
    const file = path.join(guides, 'bomb.yaml');
    writeFileSync(file, aliasBomb);
    const r = await runCli(['tour', 'list', '--guides', guides], { env });
    expect(r.stderr).not.toMatch(/\n\s+at |unexpected error/);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: invalid tour:\\n  ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:8: YAML: aliases expand to too much .*\\nfix the field`,
      ),
    );
  });

  it('in a scenario is a usage error with its position', async () => {
    const file = path.join(tmp, 'bomb-scenario.yaml');
    writeFileSync(file, aliasBomb);
    const r = await runCli(['twin', 'run', 'informer', '--scenario', file], { env });
    expect(r.stderr).not.toMatch(/\n\s+at |unexpected error/);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error: invalid scenario:\n  ${file}:2:8: YAML: aliases expand to too much`,
    );
    expect(r.stderr).toContain('fix the YAML syntax (see guides/scenarios/informer.yaml');
  });

  it('in a rules file given to index is a usage error with its position', async () => {
    const file = path.join(tmp, 'bomb-rules.yaml');
    writeFileSync(file, aliasBomb);
    const r = await runCli(['index', '--db', path.join(tmp, 'rules.sqlite'), '--rules', file], {
      env,
    });
    expect(r.stderr).not.toMatch(/\n\s+at |unexpected error/);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error: invalid rules file:\n  ${file}:2:8: YAML: aliases expand to too much`,
    );
  });
});

describe('a rules file given to index', () => {
  it('names a registered-func rule that registers nothing, with its position', async () => {
    const file = path.join(tmp, 'empty-registered-func.yaml');
    writeFileSync(
      file,
      'rules:\n  - id: nothing\n    kind: registered-func\n    package: example.com/x\n    runBy: [Run]\n',
    );
    const r = await runCli(['index', '--db', path.join(tmp, 'rf.sqlite'), '--rules', file], {
      env,
    });
    expect(r.stderr).not.toMatch(/\n\s+at |unexpected error/);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error: invalid rules file:\n  ${file}:2:5: rules[0].register: a registered-func rule needs \`register\` (methods taking the function) or \`fields\``,
    );
  });
});

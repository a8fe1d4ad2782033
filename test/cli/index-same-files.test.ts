/**
 * A checkout whose HEAD moved while the facts of every file the index reads stayed as they were
 * (its edits committed, a commit that changed only tests or docs, a comment edited in place)
 * links exactly as before: `index` keeps the rows and only the tree's row names the new commit
 * (and the files' rows their new blobs). What proves it is a fresh index of the same commit into
 * another database: every row the same, rowids included, and the same trace.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addDrainConnections, commitProxyFixture } from '../helpers/proxy-fixture.js';
import { runCli } from '../helpers/run-cli.js';
import { querySql } from '../helpers/sqlite-file.js';
import { createTempRepo } from '../helpers/temp-repo.js';

const repo = createTempRepo('k8s-read-same-files-');
const dbs: string[] = [];
/** An empty module cache: what the tree imports from outside is reported missing, with its version. */
const moduleCache = mkdtempSync(path.join(os.tmpdir(), 'k8s-read-same-files-gomodcache-'));
const env = { GOMODCACHE: moduleCache, K8S_READ_TRACE_CACHE: 'off' };
afterAll(() => {
  rmSync(repo.root, { recursive: true, force: true });
  rmSync(moduleCache, { recursive: true, force: true });
  for (const db of dbs) rmSync(db, { force: true });
});

function database(name: string): string {
  const db = path.join(repo.root, '..', `${path.basename(repo.root)}-${name}.sqlite`);
  dbs.push(db);
  return db;
}

interface IndexJson {
  commit: string;
  version: string | null;
  dirty: boolean;
  parsed: number;
  timings: { linkMs: number };
  link: { kept: boolean; sameFacts: number };
  dependencies: { missing: { importPath: string; version: string | null }[] };
}

async function index(db: string): Promise<IndexJson> {
  const run = await runCli(['index', '--repo', repo.root, '--db', db, '-o', 'json'], { env });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as IndexJson;
}

/** What `index` prints for a person. */
async function indexText(db: string): Promise<string> {
  const run = await runCli(['index', '--repo', repo.root, '--db', db], { env });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

/** Every derived row of the database's one tree, in rowid order where the table has rowids. */
async function rows(db: string): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of ['symbols', 'edges', 'bindings', 'made', 'details'])
    out[table] = await querySql(db, `SELECT rowid, * FROM ${table} ORDER BY rowid`);
  for (const table of ['files', 'packages'])
    out[table] = await querySql(db, `SELECT * FROM ${table} ORDER BY 2, 3`);
  out.tree = await querySql(
    db,
    "SELECT commit_sha, dirty, version, module, remote, json_remove(summary, '$.fingerprint') AS summary FROM trees",
  );
  return out;
}

/** A fresh index of the checkout as it is now, into a database of its own, and its rows. */
async function freshIndex(
  name: string,
): Promise<{ db: string; run: IndexJson; rows: Record<string, unknown[]> }> {
  const db = database(name);
  const run = await index(db);
  return { db, run, rows: await rows(db) };
}

const RUNNER = 'pkg/util/async/runner.go';

/** Rewrites a file of the checkout with `edit`, which must change it. */
function editFile(file: string, edit: (text: string) => string): void {
  const full = path.join(repo.root, file);
  const text = readFileSync(full, 'utf8');
  const edited = edit(text);
  expect(edited).not.toBe(text);
  writeFileSync(full, edited);
}

async function trace(db: string): Promise<{ stdout: string; stderr: string }> {
  const run = await runCli(['trace', 'kube-proxy', '--repo', repo.root, '--db', db], { env });
  expect(run.code, run.stderr).toBe(0);
  return run;
}

describe('index after HEAD moved with the same files', () => {
  const db = database('kept');

  it('names the new commit without linking, and its rows are those of a fresh index', async () => {
    const first = commitProxyFixture(repo);
    expect((await index(db)).commit).toBe(first);
    const before = await rows(db);

    repo.write('README.md', 'a proxier with two runners\n');
    repo.write('pkg/proxy/iptables/proxier_test.go', 'package iptables\n');
    const docs = repo.commit('docs and a test only');
    const again = await index(db);
    expect(again).toMatchObject({ commit: docs, dirty: false, parsed: 0 });
    expect(again.timings.linkMs).toBe(0);
    expect(again.link).toEqual({ kept: true, sameFacts: 0 });
    const after = await rows(db);
    expect(after.tree).not.toEqual(before.tree);
    expect({ ...after, tree: [] }).toEqual({ ...before, tree: [] });

    const fresh = await freshIndex('fresh-docs');
    expect(fresh.run.timings.linkMs).toBeGreaterThan(0);
    expect(fresh.run.link).toEqual({ kept: false, sameFacts: 0 });
    expect(await indexText(db)).toContain(
      '\n  calls: as linked before (no file the link reads changed)\n',
    );
    expect(fresh.rows).toEqual(after);
    const kept = await trace(db);
    expect(kept.stderr).not.toContain('warning');
    expect(kept.stdout).toContain(docs.slice(0, 12));
    expect(kept).toEqual(await trace(fresh.db));
  });

  it('a commit of the edits it indexed: the same rows, no longer dirty', async () => {
    addDrainConnections(repo.root);
    const edited = await index(db);
    expect(edited).toMatchObject({ dirty: true, parsed: 1 });
    expect(edited.timings.linkMs).toBeGreaterThan(0);
    const before = await rows(db);

    const committed = repo.commit('drain connections after the sync');
    const again = await index(db);
    expect(again).toMatchObject({ commit: committed, dirty: false, parsed: 0 });
    expect(again.timings.linkMs).toBe(0);
    const after = await rows(db);
    const [row] = before.tree as Record<string, unknown>[];
    expect(after.tree).toEqual([{ ...row, commit_sha: committed, dirty: 0 }]);

    const fresh = await freshIndex('fresh-edits');
    expect(fresh.rows).toEqual(after);
    const kept = await trace(db);
    expect(kept.stdout).toContain('drainConnections');
    expect(kept).toEqual(await trace(fresh.db));
  });

  it('a new tag on the commit: the version it names, still without linking', async () => {
    repo.git('tag', 'v1.0.0');
    const tagged = await index(db);
    expect(tagged).toMatchObject({ version: 'v1.0.0', parsed: 0 });
    expect(tagged.timings.linkMs).toBe(0);
    expect((await trace(db)).stdout).toContain('v1.0.0');
  });

  it('a commit that changes a file the index reads is linked again', async () => {
    repo.write('cmd/kube-proxy/extra.go', 'package main\n\nfunc extra() { drainConnections() }\n');
    const changed = repo.commit('one more function');
    const again = await index(db);
    expect(again).toMatchObject({ commit: changed, dirty: false, parsed: 1 });
    expect(again.timings.linkMs).toBeGreaterThan(0);
    expect(again.link).toEqual({ kept: false, sameFacts: 0 });
    expect((await freshIndex('fresh-changed')).rows).toEqual(await rows(db));
  });

  it('a comment edited in place: the new blob is recorded, not linked, and the next run has nothing to do', async () => {
    const comment =
      '\t// want fn -> (*example.com/func-field-per-path/pkg/proxy/iptables.Proxier).syncHealth funcvalue\n';
    editFile(RUNNER, (text) => {
      expect(text).toContain(comment);
      return text.replace(comment, '\t// the health loop passes its own function\n');
    });
    const edited = repo.commit('a comment in a body, no line moved');
    const again = await index(db);
    expect(again).toMatchObject({ commit: edited, parsed: 1 });
    expect(again.timings.linkMs).toBe(0);
    expect(again.link).toEqual({ kept: true, sameFacts: 1 });
    const fresh = await freshIndex('fresh-comment');
    expect(fresh.rows).toEqual(await rows(db));
    expect(await trace(db)).toEqual(await trace(fresh.db));
    const noop = await index(db);
    expect(noop).toMatchObject({ parsed: 0 });
    expect(noop.timings.linkMs).toBe(0);
  });

  it.each([
    [
      'a doc comment edited in place',
      (text: string) =>
        text.replace('// Run asks for one call of fn.', '// Run asks for a call of fn.'),
    ],
    [
      'a comment that moves the lines after it',
      (text: string) =>
        text.replace(
          '\t// the health loop passes its own function\n',
          '\t// the health loop\n\t// passes its own function\n',
        ),
    ],
  ])('%s changes the facts: linked again', async (_, edit) => {
    editFile(RUNNER, edit);
    repo.commit('a comment that is a fact');
    const again = await index(db);
    expect(again).toMatchObject({ parsed: 1 });
    expect(again.timings.linkMs).toBeGreaterThan(0);
  });

  it('a comment edited in place and a new go directive: kept, no import path changed', async () => {
    editFile(RUNNER, (text) => text.replace('// the health loop\n', '// the health loop,\n'));
    editFile('go.mod', (text) => text.replace('go 1.18', 'go 1.21'));
    repo.commit('a comment, and the go version');
    const again = await indexText(db);
    expect(again).toContain(' files (1 parsed, ');
    expect(again).toContain(
      '\n  calls: as linked before (1 file changed, none in what the link reads: calls, types, values)\n',
    );
    expect((await freshIndex('fresh-go-directive')).rows).toEqual(await rows(db));
  });

  it('a go.mod that only bumps the version of a package it cannot find: the report is rewritten, nothing linked', async () => {
    repo.write(
      'pkg/proxy/logging.go',
      'package proxy\n\nimport "github.com/go-logr/logr"\n\nfunc Logger() logr.Logger { return logr.Discard() }\n',
    );
    const goMod = path.join(repo.root, 'go.mod');
    const text = readFileSync(goMod, 'utf8');
    writeFileSync(goMod, `${text}\nrequire github.com/go-logr/logr v1.4.0\n`);
    repo.commit('a logger from a module');
    const imported = await index(db);
    expect(imported.timings.linkMs).toBeGreaterThan(0);
    expect(imported.dependencies.missing).toMatchObject([
      { importPath: 'github.com/go-logr/logr', version: 'v1.4.0' },
    ]);

    writeFileSync(goMod, `${text}\nrequire github.com/go-logr/logr v1.4.1\n`);
    const bumped = repo.commit('bump logr');
    const again = await index(db);
    expect(again).toMatchObject({ commit: bumped, parsed: 0 });
    expect(again.timings.linkMs).toBe(0);
    const stored = await querySql<{ version: string }>(
      db,
      "SELECT json_extract(summary, '$.dependencies.missing[0].version') AS version FROM trees",
    );
    expect(stored).toEqual([{ version: 'v1.4.1' }]);
    expect((await freshIndex('fresh-bump')).rows).toEqual(await rows(db));
  });

  it('a comment edited in place beside a module renamed in go.mod is linked again', async () => {
    editFile(RUNNER, (text) => text.replace('// the health loop,\n', '// the health loop;\n'));
    editFile('go.mod', (text) =>
      text.replace('module example.com/func-field-per-path', 'module example.com/renamed'),
    );
    repo.commit('a comment, and the module renamed');
    const again = await index(db);
    expect(again).toMatchObject({ parsed: 1 });
    expect(again.timings.linkMs).toBeGreaterThan(0);
  });
});

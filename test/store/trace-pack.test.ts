/**
 * The trace's record of a tree (`<db>.pack-<tree>`): written with the index, it answers what a
 * trace reads exactly as the tables do (the same rows, in the same order), a record the database
 * does not name is not read, and a trace drawn from it is the trace drawn from the tables.
 */
import { existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNoiseRules } from '../../src/resolve/rules.js';
import { mapFile } from '../../src/shared/map-file.js';
import { openIndexStore } from '../../src/store/index-store.js';
import {
  findEdgesFrom,
  findMadeBy,
  findSymbolsByIds,
  listPackages,
  loadBindingsByCaller,
} from '../../src/store/symbols.js';
import { readTracePack, tracePackPath, type TracePack } from '../../src/store/trace-pack.js';
import { removeDatabaseFiles } from '../../src/store/verify.js';
import { loadComponentRules } from '../../src/trace/rules-data.js';
import { createStoreGraph } from '../../src/trace/store-graph.js';
import { traceComponent } from '../../src/trace/trace-component.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { demoRoot, runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-pack-');
const db = path.join(tmp, 'index.sqlite');
let fixture: IndexedFixture;
let pack: TracePack;

beforeAll(async () => {
  fixture = await indexFixture(demoRoot, { store: (await openIndexStore(db)).store });
  const read = await readTracePack(fixture.store, fixture.treeId);
  if (!read) throw new Error('the index wrote no trace record');
  pack = read;
}, 120_000);

afterAll(async () => {
  await fixture?.close();
});

/** Every symbol id of the tree, and some that are none. */
async function allIds(): Promise<number[]> {
  const rows = await fixture.store.all<{ id: number }>('SELECT id FROM symbols WHERE tree = ?', [
    fixture.treeId,
  ]);
  return [...rows.map((r) => r.id), -1, 10_000_000];
}

/** A fixed spread of subsets: every id, every third, a run from the middle, repeated ids. */
function subsets(ids: number[]): number[][] {
  const mid = Math.floor(ids.length / 2);
  return [
    ids,
    ids.filter((_, i) => i % 3 === 0),
    ids.slice(mid, mid + 40).reverse(),
    [...ids.slice(0, 10), ...ids.slice(0, 10)],
    [],
  ];
}

describe('the trace record', () => {
  it('is written beside the database, named by the token the database holds', async () => {
    expect(existsSync(tracePackPath(db, fixture.treeId))).toBe(true);
    const meta = await fixture.store.get<{ value: string }>(
      'SELECT value FROM meta WHERE key = ?',
      [`pack:${fixture.treeId}`],
    );
    expect(meta?.value).toBe(pack.token);
  });

  it('answers edges, symbols, bindings, constructed types and packages as the tables do, row for row', async () => {
    const ids = await allIds();
    const byCaller = await loadBindingsByCaller(fixture.store, fixture.treeId);
    let edges = 0;
    for (const set of subsets(ids)) {
      const fromTables = await findEdgesFrom(fixture.store, fixture.treeId, set);
      expect(pack.edgesFrom(set)).toEqual(fromTables);
      edges += fromTables.length;
      expect(pack.symbolsByIds(set)).toEqual(
        await findSymbolsByIds(fixture.store, fixture.treeId, set, { text: false }),
      );
      expect(pack.bindingsFrom(set)).toEqual(
        [...new Set(set)].flatMap((id) => byCaller.get(id) ?? []),
      );
    }
    // The demo tree has calls, function values passed and interface calls to rank.
    expect(edges).toBeGreaterThan(500);
    expect(byCaller.size).toBeGreaterThan(5);
    // Into slots: slot by slot as asked, each slot's rows in the tables' order.
    const all = [...byCaller.values()].flat();
    const slots = [...new Set(all.map((b) => b.slot))];
    expect(slots.length).toBeGreaterThan(3);
    for (const set of [slots, [...slots].reverse(), [slots[0]!, -1, slots[0]!]]) {
      expect(pack.bindingsInto(set)).toEqual(
        [...new Set(set)].flatMap((s) => all.filter((b) => b.slot === s)),
      );
    }
    const types = await fixture.store.all<{ type: string }>(
      'SELECT DISTINCT type FROM made WHERE tree = ?',
      [fixture.treeId],
    );
    expect(types.length).toBeGreaterThan(10);
    const asked = [...types.map((t) => t.type), 'no/such.Type'];
    expect(pack.packages()).toEqual(await listPackages(fixture.store, fixture.treeId));
    expect(pack.packages().some((p) => p.imports.length > 3)).toBe(true);
    const key = (m: { type: string; package: string }) => `${m.type} ${m.package}`;
    expect(pack.madeBy(asked).map(key).sort()).toEqual(
      (await findMadeBy(fixture.store, fixture.treeId, asked)).map(key).sort(),
    );
  });

  it('draws the same traces as the tables, without asking them for calls', async () => {
    const components = loadComponentRules();
    const noise = loadNoiseRules();
    const trace = (target: string, tablesOnly: boolean) =>
      traceComponent(
        createStoreGraph(fixture.store, fixture.tree, { components, tablesOnly }),
        target,
        { components, noise },
      );
    // What each trace asks SQLite.
    const asked: string[] = [];
    const store = fixture.store as unknown as Record<'get' | 'all', (sql: string) => unknown>;
    const original = { get: store.get, all: store.all };
    for (const m of ['get', 'all'] as const)
      store[m] = function (this: unknown, sql: string, ...rest: unknown[]) {
        asked.push(sql);
        return (original[m] as (...a: unknown[]) => unknown).call(this, sql, ...rest);
      };
    const walk = /FROM edges WHERE tree = \? AND caller IN|FROM bindings|FROM made|FROM packages/;
    try {
      for (const target of ['kube-scheduler', 'kube-controller-manager', 'kubectl/get']) {
        asked.length = 0;
        const fromTables = await trace(target, true);
        expect(asked.filter((q) => walk.test(q)).length).toBeGreaterThan(2);
        asked.length = 0;
        const fromPack = await trace(target, false);
        expect(asked.filter((q) => walk.test(q))).toEqual([]);
        expect(fromPack.edges.length).toBeGreaterThan(10);
        expect(fromPack).toEqual(fromTables);
      }
    } finally {
      Object.assign(store, original);
    }
  });

  it('is not read when the database names another record, or when it is cut short', async () => {
    const file = tracePackPath(db, fixture.treeId);
    const whole = readFileSync(file);
    await fixture.store.run('UPDATE meta SET value = ? WHERE key = ?', [
      'another run',
      `pack:${fixture.treeId}`,
    ]);
    try {
      expect(await readTracePack(fixture.store, fixture.treeId)).toBeNull();
    } finally {
      await fixture.store.run('UPDATE meta SET value = ? WHERE key = ?', [
        pack.token,
        `pack:${fixture.treeId}`,
      ]);
    }
    expect((await readTracePack(fixture.store, fixture.treeId))?.token).toBe(pack.token);
    try {
      truncateSync(file, whole.length - 8);
      expect(await readTracePack(fixture.store, fixture.treeId)).toBeNull();
      writeFileSync(file, 'not a record');
      expect(await readTracePack(fixture.store, fixture.treeId)).toBeNull();
    } finally {
      writeFileSync(file, whole);
    }
  });

  it('that cannot be written leaves the index standing, says so, and traces read the tables', async () => {
    const other = path.join(tmp, 'blocked.sqlite');
    // A directory with something in it where the record goes: no file can be renamed onto it.
    mkdirSync(path.join(`${other}.pack-1`, 'inside'), { recursive: true });
    const index = await runCli(['index', '--repo', demoRoot, '--db', other]);
    expect(index.code).toBe(0);
    expect(index.stderr).toMatch(
      /warning: could not write .*blocked\.sqlite\.pack-1 .*; traces will read the tables/,
    );
    const trace = await runCli(['trace', 'kube-scheduler', '--repo', demoRoot, '--db', other]);
    expect(trace.code).toBe(0);
    expect(trace.stdout).toContain('scheduleOne');
  });

  it('is mapped into memory, byte for byte the file, where the native binding is built', () => {
    const file = tracePackPath(db, fixture.treeId);
    const mapped = mapFile(file);
    expect(mapped).not.toBeNull();
    expect(Buffer.from(mapped!).equals(readFileSync(file))).toBe(true);
    writeFileSync(path.join(tmp, 'empty'), '');
    expect(mapFile(path.join(tmp, 'empty'))).toBeNull();
    expect(mapFile(path.join(tmp, 'missing'))).toBeNull();
  });

  it('goes with the database when k8s-read deletes it', () => {
    const other = path.join(tmp, 'gone.sqlite');
    writeFileSync(other, '');
    writeFileSync(`${other}.pack-1`, 'x');
    writeFileSync(`${other}.pack-7`, 'x');
    writeFileSync(`${other}x.pack-1`, 'another database');
    removeDatabaseFiles(other);
    expect([other, `${other}.pack-1`, `${other}.pack-7`].filter((f) => existsSync(f))).toEqual([]);
    expect(existsSync(`${other}x.pack-1`)).toBe(true);
  });
});

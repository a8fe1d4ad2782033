/**
 * The git cache tables (git-cache.sql): commit -> pull request answers and whole-file or range
 * blames. Values are stored as JSON written by src/git; this layer only keys and moves them, so
 * it never needs to know their shape.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from './db.js';
import { openK8sReadDatabase } from './verify.js';

/** Bump when src/git changes what it stores; rows of another format are dropped on open. */
export const GIT_CACHE_FORMAT = 1;

const here = path.dirname(fileURLToPath(import.meta.url));

/** How long a cache write waits for another writer before giving up. */
const CACHE_WRITE_WAIT_MS = 250;

/** Opens (creating the file and its directory when missing) the database and its git tables. */
export async function openGitCache(dbPath: string): Promise<Store> {
  // Only a database k8s-read made: the cache never adds its tables to anyone else's file.
  const { store } = await openK8sReadDatabase(dbPath, 'write');
  try {
    await ensureGitCache(store);
    // Cache writes are a nicety: while an `index` run holds the write lock, skip them quickly
    // (callers ignore the SQLITE_BUSY) instead of making a blame wait the default 5 s each time.
    await store.setBusyTimeout(CACHE_WRITE_WAIT_MS);
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}

/** Creates the git tables in an open store, dropping rows of another format. */
export async function ensureGitCache(store: Store): Promise<void> {
  await store.exec(readFileSync(path.join(here, 'git-cache.sql'), 'utf8'));
  const row = await store.get<{ value: string }>(
    "SELECT value FROM git_cache_meta WHERE key = 'format'",
  );
  if (row?.value === String(GIT_CACHE_FORMAT)) return;
  await store.transaction(async () => {
    await store.run('DELETE FROM git_pull_request');
    await store.run('DELETE FROM git_blame');
    await store.run('DELETE FROM git_mainline');
    await store.run("DELETE FROM git_cache_meta WHERE key = 'mainline_head'");
    await store.run("INSERT OR REPLACE INTO git_cache_meta (key, value) VALUES ('format', ?)", [
      String(GIT_CACHE_FORMAT),
    ]);
  });
}

export async function readCachedPullRequests<T>(
  store: Store,
  github: string,
  commits: readonly string[],
): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  for (let i = 0; i < commits.length; i += 5000) {
    const rows = await store.all<{ commit_sha: string; answer: string }>(
      'SELECT commit_sha, answer FROM git_pull_request WHERE github = ? AND commit_sha IN (SELECT value FROM json_each(?))',
      [github, JSON.stringify(commits.slice(i, i + 5000))],
    );
    for (const row of rows) found.set(row.commit_sha, JSON.parse(row.answer) as T);
  }
  return found;
}

export async function writeCachedPullRequests(
  store: Store,
  github: string,
  answers: ReadonlyMap<string, unknown>,
): Promise<void> {
  if (answers.size === 0) return;
  await store.insertJsonRows(
    'INSERT OR REPLACE INTO git_pull_request (commit_sha, github, answer) SELECT value->>0, value->>1, value->>2 FROM jsonb_each(?)',
    [...answers].map(([commit, answer]) => [commit, github, JSON.stringify(answer)]),
  );
}

export interface BlameCacheKey {
  path: string;
  blob: string;
  options: string;
}

export async function readCachedBlame<T>(
  store: Store,
  key: BlameCacheKey,
): Promise<{ head: string; lines: T } | undefined> {
  const row = await store.get<{ head: string; lines: string }>(
    'SELECT head, lines FROM git_blame WHERE path = ? AND blob = ? AND options = ?',
    [key.path, key.blob, key.options],
  );
  return row ? { head: row.head, lines: JSON.parse(row.lines) as T } : undefined;
}

export async function writeCachedBlame(
  store: Store,
  key: BlameCacheKey,
  head: string,
  lines: unknown,
): Promise<void> {
  await store.run(
    'INSERT OR REPLACE INTO git_blame (path, blob, options, head, lines) VALUES (?, ?, ?, ?, ?)',
    [key.path, key.blob, key.options, head, JSON.stringify(lines)],
  );
}

/** Moves a still-valid blame to a newer HEAD, so the next read needs no ancestry check. */
export async function touchCachedBlame(
  store: Store,
  key: BlameCacheKey,
  head: string,
): Promise<void> {
  await store.run('UPDATE git_blame SET head = ? WHERE path = ? AND blob = ? AND options = ?', [
    head,
    key.path,
    key.blob,
    key.options,
  ]);
}

export interface StoredMainlineRow {
  commit: string;
  introducer: string;
  depth: number | null;
}

/** The HEAD the stored main line was computed for, and its depth; undefined when none is stored. */
export async function readMainlineHead(
  store: Store,
): Promise<{ head: string; depth: number } | undefined> {
  const row = await store.get<{ head: string; depth: number | null }>(
    `SELECT m.value AS head, g.depth AS depth FROM git_cache_meta m
       LEFT JOIN git_mainline g ON g.commit_sha = m.value WHERE m.key = 'mainline_head'`,
  );
  return row && row.depth !== null ? { head: row.head, depth: row.depth } : undefined;
}

export async function readMainlineRows(
  store: Store,
  commits: readonly string[],
): Promise<Map<string, StoredMainlineRow>> {
  const found = new Map<string, StoredMainlineRow>();
  for (let i = 0; i < commits.length; i += 5000) {
    const rows = await store.all<{ commit_sha: string; introducer: string; depth: number | null }>(
      'SELECT commit_sha, introducer, depth FROM git_mainline WHERE commit_sha IN (SELECT value FROM json_each(?))',
      [JSON.stringify(commits.slice(i, i + 5000))],
    );
    for (const r of rows)
      found.set(r.commit_sha, { commit: r.commit_sha, introducer: r.introducer, depth: r.depth });
  }
  return found;
}

/** Main-line commits with depth in (`above`, `upTo`], nearest first, at most `count`. */
export async function readMainlineAbove(
  store: Store,
  above: number,
  upTo: number,
  count: number,
): Promise<string[]> {
  const rows = await store.all<{ commit_sha: string }>(
    'SELECT commit_sha FROM git_mainline WHERE depth > ? AND depth <= ? ORDER BY depth LIMIT ?',
    [above, upTo, count],
  );
  return rows.map((r) => r.commit_sha);
}

/**
 * Records the main line of `head`: `replace` starts over, else the rows extend the main line of
 * `base`, and nothing is written when another process has recorded a different HEAD meanwhile.
 * Returns whether the rows were written.
 */
export async function writeMainline(
  store: Store,
  change: {
    base: string | null;
    head: string;
    rows: readonly StoredMainlineRow[];
    replace: boolean;
  },
): Promise<boolean> {
  return store.transaction(async () => {
    const current = await store.get<{ value: string }>(
      "SELECT value FROM git_cache_meta WHERE key = 'mainline_head'",
    );
    if (!change.replace && current?.value !== change.base) return false;
    if (change.replace) await store.run('DELETE FROM git_mainline');
    await store.insertJsonRows(
      'INSERT OR REPLACE INTO git_mainline (commit_sha, introducer, depth) SELECT value->>0, value->>1, value->>2 FROM jsonb_each(?)',
      change.rows.map((r) => [r.commit, r.introducer, r.depth]),
    );
    await store.run(
      "INSERT OR REPLACE INTO git_cache_meta (key, value) VALUES ('mainline_head', ?)",
      [change.head],
    );
    return true;
  });
}

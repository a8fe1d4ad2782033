/**
 * Discovery stamps kept beside the index (discovery-stamps.sql): one row per root, replaced by each
 * run that asked git. This layer moves the row, the tree's JSON deflated; what a stamp means is
 * src/index/discovery-stamp.ts's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Store } from './db.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A stamp: what src/index/discovery-stamp.ts makes and reads. */
export interface StampRow {
  /** What the stamp stands for (build, options, configs read), hashed. */
  key: string;
  digest: string;
  /** The watched paths, NUL-separated, relative to the root unless absolute. */
  paths: Buffer;
  /** The discovered tree, its layout as LayoutInputs (JSON). */
  tree: string;
}

/** The stamp of `root`, or undefined (none, no table yet, or a fault reading it). */
export async function readDiscoveryStamp(
  store: Store,
  root: string,
): Promise<StampRow | undefined> {
  try {
    const row = await store.get<{ key: string; digest: string; paths: Buffer; tree: Buffer }>(
      'SELECT key, digest, paths, tree FROM discovery_stamps WHERE root = ?',
      [root],
    );
    if (!row) return undefined;
    return { ...row, tree: inflateRawSync(row.tree).toString('utf8') };
  } catch {
    return undefined;
  }
}

/** Replaces the stamp of `root`; with `stamp` undefined, drops it. */
export async function writeDiscoveryStamp(
  store: Store,
  root: string,
  stamp: StampRow | undefined,
): Promise<void> {
  await store.exec(readFileSync(path.join(here, 'discovery-stamps.sql'), 'utf8'));
  if (!stamp) {
    await store.run('DELETE FROM discovery_stamps WHERE root = ?', [root]);
    return;
  }
  await store.run(
    'INSERT OR REPLACE INTO discovery_stamps (root, key, digest, paths, tree) VALUES (?, ?, ?, ?, ?)',
    [root, stamp.key, stamp.digest, stamp.paths, deflateRawSync(stamp.tree, { level: 1 })],
  );
}

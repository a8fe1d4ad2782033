/**
 * Opens the index of the chosen repository for reading. With no index yet it indexes first (with
 * the progress bar), as a new user expects; with an index older than HEAD it says so in one line.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { IndexMissingError } from '../errors.js';
import { Store } from '../store/db.js';
import { findTree, readSchemaVersion, SCHEMA_VERSION, type TreeRow } from '../store/index-store.js';
import type { CliContext } from './context.js';
import { announceRepo, chooseRepo, type RepoChoice, type RepoOptions } from './repo.js';

export interface OpenIndex {
  store: Store;
  treeId: number;
  tree: TreeRow;
  choice: RepoChoice;
  close(): Promise<void>;
}

export async function openIndex(
  ctx: CliContext,
  options: RepoOptions,
  behaviour: { autoIndex?: boolean; quiet?: boolean } = {},
): Promise<OpenIndex> {
  const choice = chooseRepo(options, ctx);
  if (!behaviour.quiet) announceRepo(choice, ctx);
  let opened = await tryOpen(choice);
  if (!opened) {
    if (behaviour.autoIndex === false) throw new IndexMissingError(choice.root);
    ctx.stderr.write(`no index for ${choice.root} yet; indexing it now (once)\n`);
    const { runIndex } = await import('./run-index.js');
    // A module that vendors its libraries and has no staging/ (sample-controller, an operator)
    // is unreadable without them; Kubernetes keeps its own libraries in staging/.
    const vendorOnly =
      existsSync(path.join(choice.root, 'vendor')) &&
      !existsSync(path.join(choice.root, 'staging'));
    if (vendorOnly)
      ctx.stderr.write('note: indexing vendor/ too: this module keeps its libraries there\n');
    const summary = await runIndex(choice, ctx, { includeVendor: vendorOnly });
    ctx.stderr.write(
      `indexed ${summary.files} files in ${((summary.timings.totalMs ?? 0) / 1000).toFixed(1)}s\n`,
    );
    opened = await tryOpen(choice);
    if (!opened) throw new IndexMissingError(choice.root);
  }
  const { store, tree } = opened;
  if (!behaviour.quiet) await warnIfStale(choice, tree, ctx);
  return { store, treeId: tree.id, tree, choice, close: () => store.close() };
}

async function tryOpen(choice: RepoChoice): Promise<{ store: Store; tree: TreeRow } | undefined> {
  if (!existsSync(choice.dbPath)) return undefined;
  // Read-write without creating: a read-only connection to a WAL database fails when its -shm file
  // is gone, and nothing here writes.
  const store = await Store.open(choice.dbPath, { create: false });
  const version = await readSchemaVersion(store);
  const tree =
    version === String(SCHEMA_VERSION)
      ? await findTree(store, choice.root).catch(() => undefined)
      : undefined;
  if (!tree) {
    await store.close();
    return undefined;
  }
  return { store, tree };
}

async function warnIfStale(choice: RepoChoice, tree: TreeRow, ctx: CliContext): Promise<void> {
  if (!tree.commit_sha) return;
  try {
    // A plain git call: simple-git costs ~90 ms to load, a tenth of the TUI's first-screen budget.
    const head = await new Promise<string>((resolve, reject) =>
      execFile('git', ['rev-parse', 'HEAD'], { cwd: choice.root }, (err, stdout) =>
        err ? reject(err) : resolve(stdout.trim()),
      ),
    );
    if (head && head !== tree.commit_sha) {
      ctx.stderr.write(
        `warning: the index is of ${tree.commit_sha.slice(0, 12)} but HEAD is ${head.slice(0, 12)}; run \`k8s-read index\` to refresh it\n`,
      );
    }
  } catch {
    // Not a git checkout any more, or git missing: nothing to compare.
  }
}

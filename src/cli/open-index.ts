/**
 * Opens the index of the chosen repository for reading. With no index yet it indexes first (with
 * the progress bar), as a new user expects; with an index older than HEAD, or linked by another
 * version of k8s-read, it says so in one line.
 * Anything else that stands in the way (a file k8s-read did not make, a damaged index, a lock held
 * by another process) is said as it is, with its fix: it is never mistaken for "no index yet".
 */
import { execFile } from 'node:child_process';
import { IndexMissingError } from '../errors.js';
import { readHeadFromFiles } from '../git/read-head.js';
import { linkerId } from '../resolve/linker-id.js';
import type { Store } from '../store/db.js';
import { findTree, SCHEMA_VERSION, type TreeRow } from '../store/index-store.js';
import {
  checkIndexReadable,
  openK8sReadDatabase,
  readIndexSchemaVersion,
} from '../store/verify.js';
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
  ctx.replay?.watch(choice, options);
  if (!behaviour.quiet) announceRepo(choice, ctx);
  // Asked of git while the index opens: the answer is needed only once the index is open.
  const head = behaviour.quiet ? undefined : gitHead(choice.root, ctx.env);
  let opened = await tryOpen(choice);
  if (!opened.found) {
    if (behaviour.autoIndex === false) throw new IndexMissingError(choice.root);
    ctx.stderr.write(`${opened.why}; indexing it now (once)\n`);
    const { runIndex } = await import('./run-index.js');
    // Nothing kept for a tree not indexed yet: the defaults (vendor/ for a module that keeps its
    // libraries there), and the `--with` checkouts given.
    const summary = await runIndex(choice, ctx, {});
    ctx.stderr.write(
      `indexed ${summary.files} files in ${((summary.timings.totalMs ?? 0) / 1000).toFixed(1)}s\n`,
    );
    opened = await tryOpen(choice);
    if (!opened.found) throw new IndexMissingError(choice.root);
  }
  const { store, tree } = opened;
  if (!behaviour.quiet) warnIfLinkedByAnother(tree, ctx);
  if (!behaviour.quiet && choice.with.length > 0) await warnIfWithoutCheckouts(choice, tree, ctx);
  if (head) warnIfStale(await head, tree, ctx);
  return { store, treeId: tree.id, tree, choice, close: () => store.close() };
}

type Opened = { found: true; store: Store; tree: TreeRow } | { found: false; why: string };

/**
 * The tree's index when it is there and whole; why not when it simply is not there yet (no file,
 * another schema, another tree's database). Every other problem throws.
 */
async function tryOpen(choice: RepoChoice): Promise<Opened> {
  const noIndex = `no index for ${choice.root} yet`;
  const opened = await openK8sReadDatabase(choice.dbPath, 'read');
  if (!opened) return { found: false, why: noIndex };
  const { store } = opened;
  try {
    const version = await readIndexSchemaVersion(store);
    if (version !== String(SCHEMA_VERSION)) {
      await store.close();
      return {
        found: false,
        why:
          version === null
            ? noIndex
            : `the index at ${choice.dbPath} is of an older k8s-read (schema ${version})`,
      };
    }
    const tree = await findTree(store, choice.root);
    if (!tree) {
      await store.close();
      return { found: false, why: noIndex };
    }
    await checkIndexReadable(store, tree);
    return { found: true, store, tree };
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
}

/** The checkout's HEAD commit, or undefined when it is not a git checkout (or git is missing). */
function gitHead(root: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const head = readHeadFromFiles(root, env);
  if (head) return Promise.resolve(head);
  // A plain git call: simple-git costs ~90 ms to load, a tenth of the TUI's first-screen budget.
  return new Promise((resolve) =>
    execFile('git', ['rev-parse', 'HEAD'], { cwd: root }, (err, stdout) =>
      resolve(err ? undefined : stdout.trim() || undefined),
    ),
  );
}

/**
 * `--with` given to a command that reads an index made without those checkouts: they are read
 * when indexing, so the answer comes from what the index took instead; said with the fix.
 */
async function warnIfWithoutCheckouts(
  choice: RepoChoice,
  tree: TreeRow,
  ctx: CliContext,
): Promise<void> {
  const { keptChoices } = await import('./index-choices.js');
  const read = new Set(keptChoices(tree.summary)?.with ?? []);
  const unread = choice.with.filter((w) => !read.has(w));
  if (unread.length === 0) return;
  ctx.stderr.write(
    `note: the index was made without ${unread.join(', ')}: --with is read when indexing; \`k8s-read index ${unread.map((w) => `--with ${w}`).join(' ')}\` indexes with it\n`,
  );
}

/**
 * An index linked by another k8s-read, or under other built-in rules, answers as that one did
 * until `index` links it again (the parsed files are kept): said in one line, and the command goes on.
 */
function warnIfLinkedByAnother(tree: TreeRow, ctx: CliContext): void {
  let linker: unknown;
  try {
    linker = (JSON.parse(tree.summary) as { linker?: unknown }).linker;
  } catch {
    linker = undefined;
  }
  if (linker === linkerId()) return;
  ctx.stderr.write(
    'warning: the index was linked by another version of k8s-read; run `k8s-read index` to link it again (no file is parsed again unless the facts changed)\n',
  );
}

function warnIfStale(head: string | undefined, tree: TreeRow, ctx: CliContext): void {
  if (!tree.commit_sha || !head || head === tree.commit_sha) return;
  ctx.stderr.write(
    `warning: the index is of ${tree.commit_sha.slice(0, 12)} but HEAD is ${head.slice(0, 12)}; run \`k8s-read index\` to refresh it\n`,
  );
}

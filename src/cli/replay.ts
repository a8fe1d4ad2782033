/**
 * A command's printed answer, printed again without running the command: the last step of the
 * answers `trace` and `blame` keep in the database (src/cli/trace-cache.ts, src/git/blame.ts).
 * A kept answer still costs loading commander, sqlite3 and the command's modules and opening the
 * database: 120-175 ms over Node's own start on this 2-core machine (v1.24's kube-scheduler
 * trace, a client-go blame; docs/benchmarks.md); what it prints is a function
 * of its arguments and of files whose state a few `stat` calls tell. So once a run has answered
 * from what is kept, what it wrote to stdout and stderr is kept in the cache directory
 * (`answers/`) with the state of everything it depended on, and the same command line is answered
 * from there while that state holds:
 *
 * - the arguments, the working directory, the environment variables k8s-read or its libraries read
 *   (K8S_READ_*, GIT_*, KUBERNETES_SRC, colour, width, cache and Go paths), and whether stdout and
 *   stderr are terminals and how wide: all part of the key;
 * - the repository the options choose (chosen again: a Go checkout made around the working
 *   directory changes it), its HEAD (it decides the stale-index warning) and its origin's URL
 *   (pull request links), read from its git files;
 * - the build of k8s-read, and by their identity and times (src/shared/file-state.ts, as `index`
 *   trusts `<db>.checked`) the database, every file of `rules/`, the shallow list and the files
 *   the command named (ReplayRecorder.depend: the blamed file, `.git-blame-ignore-revs`); a
 *   database whose WAL holds transactions is a miss.
 *
 * Only a run that said it answered from what is kept (ReplayRecorder.keep: `trace` read a kept
 * answer; `blame` started no git), exited 0, saw all of that unchanged from its start to its end,
 * and found none of it written within the last SETTLED_MS (git's "racily clean" rule: a write in
 * the same clock tick as our look would not show) is kept. Any doubt is a miss, and a miss is the
 * ordinary command. `K8S_READ_TRACE_CACHE=off` keeps and replays no trace (no run then reads a
 * kept answer, and the variable is part of the key).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { readHeadFromFiles, readRepoFromFiles } from '../git/read-head.js';
import { changedWithin, databaseFileState, fileIdentity } from '../shared/file-state.js';
import { GIT_LOCATION_VARIABLES } from '../shared/git-dir.js';
import { rulesDir } from '../shared/rules-dir.js';
import { writeCacheEntry } from './cache-entries.js';
import { debugNamespaces, type CliContext, type ReplayRecorder } from './context.js';
import { readBuildId } from './package-info.js';
import { cacheDir, checkWith, chooseRoot, type RepoChoice, type RepoOptions } from './repo.js';

/** Bump when a kept file's shape changes: older files are then not read. */
const FORMAT = 1;
/** Kept outputs: the most recent, within a size (one `trace kubelet --all -o json` is ~6.5 MB). */
const KEPT = 32;
const KEPT_BYTES = 32 * 1024 * 1024;
/** An output larger than this is not kept: eight of them would fill KEPT_BYTES. */
const LARGEST = 4 * 1024 * 1024;
/** A file written this recently may still change within the same mtime tick: not kept yet. */
const SETTLED_MS = 100;

/** Environment variables that can change what a command prints, besides K8S_READ_* and GIT_*. */
const READ_VARIABLES = [
  'KUBERNETES_SRC',
  'XDG_CACHE_HOME',
  'HOME',
  'GOMODCACHE',
  'GOPATH',
  'NO_COLOR',
  'FORCE_COLOR',
  'TERM',
  'CI',
  'COLUMNS',
  'NODE_OPTIONS',
];

type Output = [stream: 1 | 2, text: string];

/** What a kept answer depended on, as it was: compared whole. */
interface State {
  root: string;
  source: RepoChoice['source'];
  dbPath: string;
  head: string;
  /** The origin remote's URL as the git files give it (pull request links), or null. */
  origin: string | null;
  build: string;
  files: Record<string, string>;
}

interface Kept {
  format: number;
  key: string;
  options: RepoOptions;
  /** The files the command named besides the index and the rules (ReplayRecorder.depend). */
  depends: string[];
  state: State;
  output: Output[];
}

/**
 * Prints the kept answer of this command line when everything it depended on is as it was, and
 * says whether it did. Never throws: anything unreadable is a miss.
 */
export function replay(argv: readonly string[], ctx: CliContext): boolean {
  const debug = debugNamespaces(ctx);
  // Debug lines of other namespaces describe work a replay does not do: run the command.
  if (debug.some((n) => n !== 'replay')) return false;
  try {
    const key = keyOf(argv, ctx);
    const file = keptFile(ctx, key);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Kept;
    if (kept.format !== FORMAT || kept.key !== key) return false;
    // Chosen again (the state holds the root and how it was chosen), but for the database's
    // path: a function of the root and of the options, directory and variables in the key (and
    // its hash would cost loading node:crypto).
    checkWith(kept.options, ctx);
    const choice = { ...chooseRoot(kept.options, ctx), dbPath: kept.state.dbPath };
    const state = observe(choice, kept.depends, ctx);
    if (!state || JSON.stringify(state) !== JSON.stringify(kept.state)) return false;
    for (const [stream, text] of kept.output) (stream === 1 ? ctx.stdout : ctx.stderr).write(text);
    if (debug.length > 0)
      ctx.stderr.write(
        `[replay] printed the output kept for these arguments and files (${file})\n`,
      );
    return true;
  } catch {
    return false;
  }
}

/**
 * The context a replayable command runs with: its output is copied as it is written, and the
 * command tells the recorder which repository it opened and whether it read a kept answer.
 * `finish` keeps the output when everything held.
 */
export function recording(
  argv: readonly string[],
  ctx: CliContext,
): { ctx: CliContext; finish(exitCode: number): void } {
  const output: Output[] = [];
  let bytes = 0;
  let watched: { choice: RepoChoice; options: RepoOptions } | undefined;
  /** Each file the command named, with its state before the command read it. */
  const depends = new Map<string, string>();
  let before: State | undefined;
  let kept = false;
  const copy = <S extends CliContext['stdout']>(stream: S, fd: 1 | 2): S => {
    const tee = Object.create(stream) as S;
    tee.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString();
      bytes += text.length;
      if (bytes <= LARGEST) output.push([fd, text]);
      return (stream.write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as S['write'];
    return tee;
  };
  // The recorder never fails the command: a state it cannot tell only means nothing is kept.
  let unknown = false;
  const recorder: ReplayRecorder = {
    watch(choice, options) {
      // The first repository the command chooses is the one its answer comes from.
      if (watched) return;
      watched = { choice, options: { ...options } };
      try {
        before = observe(choice, [], ctx);
      } catch {
        unknown = true;
      }
    },
    depend(file) {
      try {
        if (!depends.has(file)) depends.set(file, fileIdentity(file) ?? '-');
      } catch {
        unknown = true;
      }
    },
    keep() {
      kept = true;
    },
  };
  return {
    ctx: { ...ctx, stdout: copy(ctx.stdout, 1), stderr: copy(ctx.stderr, 2), replay: recorder },
    finish(exitCode) {
      if (exitCode !== 0 || !kept || unknown || !watched || !before || bytes > LARGEST) return;
      // Debug lines are not the answer (`replay` has none on this path).
      if (debugNamespaces(ctx).some((n) => n !== 'replay')) return;
      try {
        const names = [...depends.keys()];
        const state = observe(watched.choice, names, ctx);
        const expected = { ...before, files: { ...before.files, ...Object.fromEntries(depends) } };
        if (!state || JSON.stringify(state) !== JSON.stringify(expected)) return;
        if (!settled(state)) return;
        const key = keyOf(argv, ctx);
        const entry: Kept = {
          format: FORMAT,
          key,
          options: watched.options,
          depends: names,
          state,
          output,
        };
        writeCacheEntry(keptFile(ctx, key), JSON.stringify(entry), {
          count: KEPT,
          bytes: KEPT_BYTES,
        });
      } catch {
        // An unusable cache directory only costs the next run its replay.
      }
    },
  };
}

/** Everything of the command line and its surroundings that can change what it prints. */
function keyOf(argv: readonly string[], ctx: CliContext): string {
  const env = Object.entries(ctx.env)
    .filter(
      ([name, value]) =>
        value !== undefined &&
        name !== 'K8S_READ_DEBUG' &&
        (name.startsWith('K8S_READ_') || name.startsWith('GIT_') || READ_VARIABLES.includes(name)),
    )
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify({
    argv,
    cwd: ctx.cwd,
    env,
    stdout: [Boolean(ctx.stdout.isTTY), ctx.stdout.isTTY ? (ctx.stdout.columns ?? null) : null],
    stderr: Boolean(ctx.stderr.isTTY),
  });
}

/**
 * Where the output kept under `key` is: named by two 32-bit FNV-1a hashes of it (node:crypto would
 * cost ~7 ms to load); two keys sharing a name only replace each other, as the whole key is
 * compared when read.
 */
function keptFile(ctx: CliContext, key: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 13);
  }
  const name = [a, b].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
  return path.join(cacheDir(ctx), 'answers', `${name}.json`);
}

/**
 * The state of what an answer read in this repository depends on, or undefined when it cannot be
 * told without starting git or the build has no id (running from source): never replayed then.
 */
function observe(
  choice: Pick<RepoChoice, 'root' | 'source' | 'dbPath'>,
  depends: readonly string[],
  ctx: CliContext,
): State | undefined {
  const head =
    readHeadFromFiles(choice.root, ctx.env) ?? (outsideGit(choice.root, ctx) ? 'none' : undefined);
  const build = readBuildId();
  if (!head || !build) return undefined;
  // A WAL with content (a writer's transactions not yet in the file) is a state not told: a miss.
  const database = databaseFileState(choice.dbPath);
  if (!database) return undefined;
  const files: Record<string, string> = { [choice.dbPath]: database };
  for (const name of readdirSync(rulesDir).sort())
    files[path.join(rulesDir, name)] = fileIdentity(path.join(rulesDir, name)) ?? '-';
  // What blame reads of the git files besides HEAD: the shallow list and the origin's URL.
  const git = readRepoFromFiles(choice.root, ctx.env);
  if (git) files[git.shallowFile] = fileIdentity(git.shallowFile) ?? '-';
  for (const file of depends) files[file] = fileIdentity(file) ?? '-';
  const origin = git?.originUrl ?? null;
  const { root, source, dbPath } = choice;
  return { root, source, dbPath, head, origin, build, files };
}

/**
 * True when git, asked for HEAD in `root`, can only fail: no `.git` there or above it, and no
 * variable pointing git elsewhere (the demo tree of an installed k8s-read).
 */
function outsideGit(root: string, ctx: CliContext): boolean {
  if (GIT_LOCATION_VARIABLES.some((name) => ctx.env[name] !== undefined)) return false;
  for (let dir = root; ; dir = path.dirname(dir)) {
    if (statSync(path.join(dir, '.git'), { throwIfNoEntry: false })) return false;
    if (path.dirname(dir) === dir) return true;
  }
}

/** True when no watched file was written in the last SETTLED_MS. */
function settled(state: State): boolean {
  return Object.keys(state.files).every((file) => !changedWithin(file, SETTLED_MS));
}

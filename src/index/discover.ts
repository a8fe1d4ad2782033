/**
 * Which Go files make up a tree, and their blob ids. In a git work tree: tracked files with the
 * blob ids git already knows, files edited on disk and untracked-not-ignored files hashed here (so
 * a work tree with local edits indexes what is on disk). Anywhere else: a directory walk, every
 * file hashed like a git blob.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { buildModuleLayout, type ModuleLayout } from './modules.js';

export interface DiscoverOptions {
  /** @default false */
  includeVendor?: boolean;
  /** @default false */
  includeTests?: boolean;
}

export interface SourceFile {
  /** Path relative to the root, `/`-separated. */
  path: string;
  /** Git blob id when git knows the file unchanged; otherwise computed while parsing. */
  blob?: string;
}

export interface TreeInfo {
  root: string;
  isGit: boolean;
  commit: string | null;
  dirty: boolean;
  remote: string | null;
  version: string | null;
  files: SourceFile[];
  layout: ModuleLayout;
  skipped: { vendor: number; tests: number };
}

export async function discoverTree(root: string, options: DiscoverOptions = {}): Promise<TreeInfo> {
  const git = await openGit(root);
  const listed = git ? await listGitFiles(root) : listDirectoryFiles(root);
  const skipped = { vendor: 0, tests: 0 };
  const goMods = new Map<string, string>();
  const files: SourceFile[] = [];
  for (const file of listed.files) {
    const p = file.path;
    if (p === 'go.mod' || p.endsWith('/go.mod')) {
      if (!isVendored(p)) {
        const dir = p === 'go.mod' ? '' : p.slice(0, -'/go.mod'.length);
        try {
          goMods.set(dir, readFileSync(path.join(root, p), 'utf8'));
        } catch {
          // An unreadable go.mod only loses its module path; the files are still indexed.
        }
      }
      continue;
    }
    if (!p.endsWith('.go') || ignoredByGo(p)) continue;
    if (!options.includeVendor && isVendored(p)) {
      skipped.vendor++;
      continue;
    }
    if (!options.includeTests && p.endsWith('_test.go')) {
      skipped.tests++;
      continue;
    }
    files.push(file);
  }
  const goWorkPath = path.join(root, 'go.work');
  const layout = buildModuleLayout(
    goMods,
    existsSync(goWorkPath) ? readFileSync(goWorkPath, 'utf8') : undefined,
  );
  let commit: string | null = null;
  let remote: string | null = null;
  let version: string | null = null;
  if (git) {
    commit = await git.revparse(['HEAD']).catch(() => null);
    remote =
      (await git.raw(['config', '--get', 'remote.origin.url']).catch(() => '')).trim() || null;
    version = (await git.raw(['describe', '--tags', '--abbrev=0']).catch(() => '')).trim() || null;
  }
  version ??= guessKubernetesVersion(root);
  return {
    root,
    isGit: Boolean(git),
    commit,
    dirty: listed.dirty,
    remote,
    version,
    files,
    layout,
    skipped,
  };
}

async function openGit(root: string) {
  const git = simpleGit({ baseDir: root, binary: 'git', maxConcurrentProcesses: 4 });
  try {
    const inside = (await git.raw(['rev-parse', '--is-inside-work-tree'])).trim();
    return inside === 'true' ? git : null;
  } catch {
    return null;
  }
}

async function listGitFiles(root: string): Promise<{ files: SourceFile[]; dirty: boolean }> {
  const git = simpleGit({ baseDir: root });
  // -z keeps names with spaces or non-ASCII characters intact (no quoting).
  const staged = await git.raw(['ls-files', '-s', '-z', '--', '.']);
  const modified = new Set(
    splitZ(await git.raw(['diff', '--name-only', '-z', '--relative', '--', '.'])),
  );
  const deleted = new Set(splitZ(await git.raw(['ls-files', '-d', '-z', '--', '.'])));
  const untracked = splitZ(
    await git.raw(['ls-files', '-o', '--exclude-standard', '-z', '--', '.']),
  );
  const files: SourceFile[] = [];
  let dirty = false;
  for (const entry of splitZ(staged)) {
    const tab = entry.indexOf('\t');
    const [mode, blob] = entry.slice(0, tab).split(' ');
    const p = entry.slice(tab + 1);
    // Symlinks (vendor/k8s.io/* -> staging) and submodules: their files are listed where they live.
    if (mode === '120000' || mode === '160000' || deleted.has(p)) continue;
    if (modified.has(p)) {
      if (p.endsWith('.go')) dirty = true;
      files.push({ path: p });
    } else files.push({ path: p, ...(blob ? { blob } : {}) });
  }
  for (const p of untracked) {
    if (p.endsWith('.go')) dirty = true;
    files.push({ path: p });
  }
  return { files, dirty };
}

function listDirectoryFiles(root: string): { files: SourceFile[]; dirty: boolean } {
  const files: SourceFile[] = [];
  const walk = (dir: string, rel: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue;
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || entry.name === '.git') continue;
        walk(path.join(dir, entry.name), relPath);
      } else if (entry.isFile() && (entry.name.endsWith('.go') || entry.name === 'go.mod')) {
        files.push({ path: relPath });
      }
    }
  };
  walk(root, '');
  return { files, dirty: false };
}

function splitZ(text: string): string[] {
  return text.split('\0').filter((s) => s.length > 0);
}

function isVendored(p: string): boolean {
  return p.startsWith('vendor/') || p.includes('/vendor/');
}

/** The go command ignores directories named testdata and those starting with `.` or `_`. */
function ignoredByGo(p: string): boolean {
  const parts = p.split('/');
  parts.pop();
  return parts.some((s) => s === 'testdata' || s.startsWith('.') || s.startsWith('_'));
}

/**
 * Without tags (a shallow or single-commit clone), the newest CHANGELOG-1.N.md names the minor
 * release the tree belongs to.
 */
function guessKubernetesVersion(root: string): string | null {
  const dir = path.join(root, 'CHANGELOG');
  try {
    if (!statSync(dir).isDirectory()) return null;
    const minors = readdirSync(dir)
      .map((f) => /^CHANGELOG-1\.(\d+)\.md$/.exec(f)?.[1])
      .filter((m): m is string => m !== undefined)
      .map(Number);
    return minors.length ? `v1.${Math.max(...minors)}` : null;
  } catch {
    return null;
  }
}

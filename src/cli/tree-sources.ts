/**
 * Where an index's packages came from, as `index` and `stats` print it: how import paths were
 * found (go.mod, or what a tree from before go.mod says) and which dependencies outside the tree
 * were found and which are missing.
 */
import type { DependencyReport, DependencySource, MissingReason } from '../index/dependencies.js';
import type { ImportPathSource } from '../index/modules.js';

const METHOD_WORDS: Record<ImportPathSource, string> = {
  'go.mod': 'go.mod',
  'go.work': 'go.work',
  'import comment': '// import comments',
  'Godeps.json': 'Godeps/Godeps.json',
  imports: "the tree's own imports",
  vendor: 'vendor/',
  dependency: 'dependencies outside the tree',
};

const SOURCE_WORDS: Record<DependencySource, string> = {
  vendor: 'vendor/',
  'go.work': 'go.work',
  replace: 'go.mod replace',
  with: '--with',
  'module cache': 'the module cache',
};

/** `import paths: 1477 packages from Godeps/Godeps.json, 367 from // import comments`. */
export function describeImportPaths(counts: Partial<Record<ImportPathSource, number>>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n && n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(
      ([method, n], i) =>
        `${n}${i === 0 ? ' packages' : ''} from ${METHOD_WORDS[method as ImportPathSource] ?? method}`,
    );
  return `import paths: ${parts.length ? parts.join(', ') : 'none found'}`;
}

/** True when the paths came from something other than go.mod files: worth a line of output. */
export function importPathsWorthSaying(counts: Partial<Record<ImportPathSource, number>>): boolean {
  return Object.keys(counts).some((k) => k !== 'go.mod' && k !== 'vendor' && k !== 'dependency');
}

/**
 * Lines for stdout (what was found) and for stderr (what is missing, and problems with `--with`).
 * `verbose` lists every module and every missing package.
 */
export function describeDependencies(
  report: DependencyReport,
  verbose: boolean,
  listHint = '--verbose lists them',
): { found: string[]; problems: string[] } {
  const found: string[] = [];
  const problems: string[] = [];
  const outside = report.roots.filter((r) => r.source !== 'vendor');
  if (report.vendor === 'not indexed')
    found.push('dependencies: in vendor/, not indexed (--include-vendor indexes them)');
  else if (report.vendor === 'indexed')
    found.push(
      report.roots.length > 0
        ? `dependencies: vendor/ (${plural(report.roots.length, 'module')} in vendor/modules.txt)`
        : // A tree from before modules (Godeps, glide, dep) vendors packages, not modules.
          'dependencies: vendor/ (no vendor/modules.txt: its packages are named by their paths)',
    );
  if (outside.length > 0) {
    const bySource = new Map<DependencySource, number>();
    for (const r of outside) bySource.set(r.source, (bySource.get(r.source) ?? 0) + 1);
    const packages = outside.reduce((n, r) => n + r.packages, 0);
    const files = outside.reduce((n, r) => n + r.files, 0);
    found.push(
      `dependencies: ${plural(outside.length, 'module')} outside the tree (${plural(packages, 'package')}, ${plural(files, 'file')}): ${[
        ...bySource,
      ]
        .map(([source, n]) => `${n} from ${SOURCE_WORDS[source]}`)
        .join(', ')}`,
    );
  }
  if (verbose)
    for (const r of report.roots)
      found.push(
        `  ${r.module}@${r.version ?? 'local'}: ${plural(r.packages, 'package')} from ${SOURCE_WORDS[r.source]} (${r.dir})`,
      );
  if (report.missing.length > 0) {
    // One line per reason, naming the modules (or, without one, the packages) it hit.
    const byReason = new Map<MissingReason, Map<string, string[]>>();
    for (const m of report.missing) {
      const modules = byReason.get(m.reason) ?? new Map<string, string[]>();
      byReason.set(m.reason, modules);
      const key = m.module ? `${m.module}@${m.version}` : m.importPath;
      modules.set(key, [...(modules.get(key) ?? []), m.importPath]);
    }
    problems.push(
      `warning: ${plural(report.missing.length, 'imported package')} not found${verbose ? '' : ` (${listHint})`}; give checkouts with --with PATH${report.moduleCache ? ', or fetch modules into the cache with `go mod download`' : ''}:`,
    );
    for (const [reason, modules] of byReason) {
      const where =
        reason === 'not in the module cache' || reason === 'no such package in the module'
          ? ` (${report.moduleCache})`
          : '';
      const names = [...modules.keys()];
      problems.push(
        `  ${reason}${where}: ${verbose ? names.join(', ') : `${names.slice(0, 4).join(', ')}${names.length > 4 ? ` and ${names.length - 4} more` : ''}`}`,
      );
      if (verbose)
        for (const m of report.missing.filter((x) => x.reason === reason))
          problems.push(`    ${m.importPath}  (imported by ${m.importedBy})`);
    }
  }
  for (const w of report.warnings) problems.push(`warning: ${w}`);
  return { found, problems };
}

/** The import-path line when it says more than "go.mod", then the dependencies. */
export function describeSources(
  sources: {
    importPaths?: Partial<Record<ImportPathSource, number>>;
    dependencies?: DependencyReport;
  },
  options: { verbose: boolean; allPaths?: boolean; listHint?: string },
): { found: string[]; problems: string[] } {
  const deps = sources.dependencies
    ? describeDependencies(sources.dependencies, options.verbose, options.listHint)
    : { found: [], problems: [] };
  const paths =
    sources.importPaths &&
    (options.verbose || options.allPaths || importPathsWorthSaying(sources.importPaths))
      ? [describeImportPaths(sources.importPaths)]
      : [];
  return { found: [...paths, ...deps.found], problems: deps.problems };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

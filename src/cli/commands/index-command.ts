import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { CliContext } from '../context.js';
import { DEFAULT_MAX_FILE_BYTES, type GivenChoices } from '../index-choices.js';
import { outputOption, writeJson } from '../output.js';
import { addRepoOptions, announceRepo, chooseRepo, type RepoOptions } from '../repo.js';

interface IndexFlags extends Omit<RepoOptions, 'with'> {
  jobs?: string;
  /** Each of these: undefined when not given (then as the tree's last index had it). */
  includeVendor?: boolean;
  includeTests?: boolean;
  maxFileSize?: string;
  rules?: string[] | false;
  with?: string[] | false;
  rebuild?: boolean;
  verbose?: boolean;
  output: 'text' | 'json';
}

export function registerIndexCommand(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('index')
    .description(
      'Parse a Go checkout with tree-sitter and resolve its calls into the index (SQLite). Re-runs parse only files whose content changed (one where nothing changed does not even ask git), and a new commit in which the files it reads say the same (edits committed, tests, docs or the required versions of modules it does not index changed, a comment edited without moving a line) is only recorded, not linked again; a database shared by two checkouts parses each file content once. Ctrl-C stops it safely: the files parsed so far are kept for the next run, and the previous index stays as it was.',
    );
  addRepoOptions(cmd)
    .option('--no-with', 'forget the --with checkouts the last index of this tree read')
    .option('-j, --jobs <n>', 'parser worker threads (default: CPU count)')
    .option(
      '--include-vendor',
      'also index vendor/ (staging is always indexed; the default for a module with vendor/ and no staging/)',
    )
    .option('--no-include-vendor', 'leave vendor/ out')
    .option('--include-tests', 'also index _test.go files')
    .option('--no-include-tests', 'leave _test.go files out')
    .option(
      '--max-file-size <bytes>',
      `skip larger files (generated tables) (default: ${DEFAULT_MAX_FILE_BYTES})`,
    )
    .option('--rules <file...>', 'extra framework rule files (see rules/frameworks.yaml)')
    .option('--no-rules', 'forget the extra rule files the last index of this tree read')
    .option(
      '--rebuild',
      'delete the database and index from scratch (every tree in it; only a database k8s-read made)',
    )
    .option(
      '-v, --verbose',
      'list files with syntax or encoding problems, dependency modules and missing packages',
    )
    .addOption(outputOption(['text', 'json'], 'text'))
    .addHelpText(
      'after',
      '\nA tree is indexed again as it was last time (vendor/, tests, the size limit, rules,\n--with) unless a flag says otherwise; the run says what it kept, and `stats` shows it.\n\nExamples:\n  k8s-read index --repo ~/src/kubernetes\n  k8s-read index --repo ~/src/k8s-1.15 --db ~/.cache/k8s-read/shared.sqlite   # share parsed files between versions\n  k8s-read index --repo ~/src/sample-controller --with ~/src/client-go   # client-go from a checkout, the rest from the module cache\n',
    )
    .action(async (flags: IndexFlags) => {
      const jobs = flags.jobs === undefined ? undefined : parseJobs(flags.jobs, ctx);
      const maxFileBytes = flags.maxFileSize === undefined ? undefined : Number(flags.maxFileSize);
      if (maxFileBytes !== undefined && (!Number.isFinite(maxFileBytes) || maxFileBytes < 1))
        throw new UsageError(`--max-file-size must be a number of bytes, not ${flags.maxFileSize}`);
      const { with: checkouts, ...repoFlags } = flags;
      const choice = chooseRepo({ ...repoFlags, ...(checkouts ? { with: checkouts } : {}) }, ctx);
      announceRepo(choice, ctx);
      const given: GivenChoices = {
        ...(flags.includeVendor !== undefined ? { includeVendor: flags.includeVendor } : {}),
        ...(flags.includeTests !== undefined ? { includeTests: flags.includeTests } : {}),
        ...(maxFileBytes !== undefined ? { maxFileBytes } : {}),
        ...(flags.rules !== undefined
          ? { rules: flags.rules ? flags.rules.map((r) => path.resolve(ctx.cwd, r)) : [] }
          : {}),
        ...(checkouts === false ? { with: [] } : {}),
      };
      const { runIndex } = await import('../run-index.js');
      const summary = await runIndex(choice, ctx, {
        ...(jobs ? { jobs } : {}),
        given,
        rebuild: Boolean(flags.rebuild),
      });
      if (flags.output === 'json') {
        writeJson(ctx.stdout, summary);
        return;
      }
      const c = summary.counts;
      const secs = (summary.timings.totalMs! / 1000).toFixed(1);
      ctx.stdout.write(
        `indexed ${summary.files} files (${summary.parsed} parsed, ${summary.reused} unchanged) in ${secs}s: ` +
          `${c.packages} packages, ${c.functions} functions, ${c.methods} methods, ${c.types} types, ${c.literals} closures, ${c.calls} calls\n`,
      );
      ctx.stdout.write(
        `  ${summary.repo}${summary.commit ? ` @ ${summary.commit.slice(0, 12)}` : ''}${summary.version ? ` (${summary.version})` : ''}${summary.dirty ? ' with local edits' : ''}\n`,
      );
      ctx.stdout.write(`  database: ${summary.db}\n`);
      if (summary.link.kept) ctx.stdout.write(`  calls: ${keptLink(summary.link.sameFacts)}\n`);
      const { describeSources } = await import('../tree-sources.js');
      const sources = describeSources(summary, { verbose: Boolean(flags.verbose) });
      for (const line of sources.found) ctx.stdout.write(`  ${line}\n`);
      for (const line of sources.problems) ctx.stderr.write(`${line}\n`);
      const bad = summary.problems.filter((p) => p.status !== 'excluded');
      if (bad.length > 0) {
        const byStatus = new Map<string, number>();
        for (const p of bad) byStatus.set(p.status, (byStatus.get(p.status) ?? 0) + 1);
        const parts = [...byStatus].map(
          ([s, n]) =>
            `${n} ${s === 'syntax' ? 'with syntax errors' : s === 'encoding' ? 'not UTF-8' : s === 'too-large' ? 'too large (skipped)' : s}`,
        );
        ctx.stderr.write(
          `warning: ${parts.join(', ')}${flags.verbose ? '' : ' (--verbose lists them)'}\n`,
        );
        if (flags.verbose)
          for (const p of bad)
            ctx.stderr.write(`  ${p.path}: ${p.status}${p.message ? ` (${p.message})` : ''}\n`);
      }
    });
}

/** Why the last link's calls stand (a link of the whole tree takes seconds to a minute). */
function keptLink(sameFacts: number): string {
  if (sameFacts === 0) return 'as linked before (no file the link reads changed)';
  const files = sameFacts === 1 ? '1 file' : `${sameFacts} files`;
  return `as linked before (${files} changed, none in what the link reads: calls, types, values)`;
}

/**
 * `--jobs N`: parsing is CPU-bound, so threads beyond the CPUs only add memory (each holds its
 * own parser and heap: 1000 of them took 9.6 GB); more than the CPUs is capped, and said so.
 */
function parseJobs(value: string, ctx: CliContext): number {
  const jobs = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(jobs) || jobs < 1)
    throw new UsageError(`--jobs must be a whole number >= 1, not ${value}`);
  const cpus = os.availableParallelism();
  if (jobs <= cpus) return jobs;
  ctx.stderr.write(
    `note: --jobs ${jobs} is more than the ${cpus} CPUs here; using ${cpus} (more threads only use more memory)\n`,
  );
  return cpus;
}

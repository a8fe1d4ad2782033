import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { CliContext } from '../context.js';
import { outputOption } from '../output.js';
import { addRepoOptions, type RepoOptions } from '../repo.js';

interface QueryFlags extends RepoOptions {
  output: 'text' | 'json';
  limit?: string;
}

export function registerQueryCommands(program: Command, ctx: CliContext): void {
  const def = program
    .command('def')
    .argument(
      '<name|symbol|file:line[:col]>',
      'a name (scheduleOne), a symbol, or a position in a file',
    )
    .description(
      'Where a symbol is declared (file:line and a GitHub permalink), or — given file:line[:col] — what the calls at that position resolve to: a package function, or a method on which type.',
    );
  addRepoOptions(def)
    .addOption(outputOption(['text', 'json'], 'text'))
    .addHelpText(
      'after',
      '\nExamples:\n  k8s-read def scheduleOne\n  k8s-read def pkg/scheduler/schedule_one.go:96\n  k8s-read def pkg/scheduler/schedule_one.go:96:24\n',
    )
    .action(async (query: string, flags: QueryFlags) => {
      const { runDef } = await import('../query-actions.js');
      await runDef(ctx, flags, query, flags.output);
    });

  const search = program
    .command('search')
    .argument('<text>', 'part of a name or symbol')
    .description('Symbols whose name or symbol contains the text, best matches first.');
  addRepoOptions(search)
    .option('--limit <n>', 'how many results', '30')
    .addOption(outputOption(['text', 'json'], 'text'))
    .action(async (text: string, flags: QueryFlags) => {
      const limit = Number(flags.limit);
      if (!Number.isInteger(limit) || limit < 1)
        throw new UsageError(`--limit takes a whole number of 1 or more, not ${flags.limit}`);
      const { runSearch } = await import('../query-actions.js');
      await runSearch(ctx, flags, text, limit, flags.output);
    });

  const stats = program
    .command('stats')
    .description(
      'What the index holds: files, packages, symbols, calls and how they resolved, when and at which commit.',
    );
  addRepoOptions(stats)
    .addOption(outputOption(['text', 'json'], 'text'))
    .action(async (flags: QueryFlags) => {
      const { runStats } = await import('../query-actions.js');
      await runStats(ctx, flags, flags.output);
    });
}

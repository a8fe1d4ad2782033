/**
 * `tour list | check | <name>` and `tui`: guided walks through the code, anchored to symbols, and
 * the same screen to explore a trace. The specs are here; the tours, the index and Ink load in the
 * actions (src/cli/tour-actions.ts, src/cli/screen.ts), so `--help` stays instant.
 */
import type { Command } from 'commander';
import { hintLine } from '../../tui/key-bindings.js';
import type { CliContext } from '../context.js';
import { outputOption } from '../output.js';
import { addRepoOptions, type RepoOptions } from '../repo.js';
import { addTraceViewOptions, parsePositive, type TraceViewFlags } from '../trace-options.js';

export interface TourFlags extends RepoOptions {
  guides?: string;
}

interface ListFlags extends TourFlags {
  output: 'text' | 'json';
}

interface TakeFlags extends TourFlags {
  plain?: boolean;
  step?: number;
}

interface TuiFlags extends RepoOptions, TraceViewFlags {}

const GUIDES_HELP = 'a directory of tour files (default: the bundled guides/)';

export function registerTourCommands(program: Command, ctx: CliContext): void {
  const tour = program
    .command('tour')
    .description(
      'guided tours of the Kubernetes code, anchored to symbols: `tour list`, `tour check`, `tour <name>`',
    )
    .addHelpText(
      'after',
      '\nTake a tour:\n' +
        '  k8s-read tour <name> [--plain] [--step N] [--repo PATH] [--db PATH] [--guides DIR]\n' +
        '    --plain     print the tour as text (what happens without a terminal)\n' +
        '    --step N    start at step N\n' +
        `  keys: ${hintLine()}\n` +
        '\nExamples:\n' +
        '  k8s-read tour list\n' +
        '  k8s-read tour kube-scheduler                  # the interactive tour (Ink)\n' +
        '  k8s-read tour client-go --step 4 --plain      # the same tour as text, from step 4\n' +
        '  k8s-read tour check --repo ~/src/kubernetes   # CI for tour authors: exits 1 when a step is lost\n',
    );

  tour
    .command('list')
    .description('the tours, in the order an expert reads')
    .option('--guides <dir>', GUIDES_HELP)
    .addOption(outputOption(['text', 'json'], 'text'))
    .action(async (flags: ListFlags) => {
      const { runTourList } = await import('../tour-actions.js');
      await runTourList(ctx, flags);
    });

  addRepoOptions(
    tour
      .command('check')
      .description(
        'resolve every step of every tour against the index; list what is missing with similar symbols, and exit 1 if anything is',
      )
      .option('--guides <dir>', GUIDES_HELP)
      .addOption(outputOption(['text', 'json'], 'text')),
  ).action(async (flags: ListFlags) => {
    const { runTourCheck } = await import('../tour-actions.js');
    await runTourCheck(ctx, flags);
  });

  // `tour <name>` is the default subcommand, so `tour kube-scheduler` needs no verb.
  addRepoOptions(
    tour
      .command('take', { isDefault: true, hidden: true })
      .argument('[name]', 'the tour (see `k8s-read tour list`)')
      .option(
        '--plain',
        'print the tour as text instead of the interactive screen (the default without a terminal)',
      )
      .option('--step <n>', 'start at this step (1 is the first)', parsePositive('--step'))
      .option('--guides <dir>', GUIDES_HELP),
  ).action(async (name: string | undefined, flags: TakeFlags) => {
    const { runTour, runTourList } = await import('../tour-actions.js');
    if (name === undefined) {
      await runTourList(ctx, { ...flags, output: 'text' });
      return;
    }
    await runTour(ctx, name, flags);
  });

  addTraceViewOptions(
    addRepoOptions(
      program
        .command('tui')
        .argument(
          '[what...]',
          "`trace <component|symbol>` or `controllers [component]`; without it, the start screen of the tree's controllers (else the trace of kube-scheduler, or of the tree's first component)",
        )
        .description(
          'explore a trace on the tour screen: the call tree, the Go source, twins, blame and callers; or start on the controllers and open one',
        )
        .addHelpText(
          'after',
          '\nThe trace is the one `k8s-read trace` prints for the same flags. The start screen lists what\n' +
            '`k8s-read controllers` prints (start function, informers, queue, workers, sync handler);\n' +
            "enter opens the selected controller's trace, s comes back to the list.\n" +
            '\nExamples:\n  k8s-read tui\n  k8s-read tui controllers memcached-operator --repo ~/src/operator\n' +
            '  k8s-read tui trace kube-controller-manager/replicaset\n' +
            '  k8s-read tui trace kube-scheduler --focus selectHost\n',
        ),
    ),
  ).action(async (what: string[], flags: TuiFlags) => {
    const { runTui, parseTuiTarget } = await import('../screen.js');
    await runTui(ctx, parseTuiTarget(what), flags);
  });
}

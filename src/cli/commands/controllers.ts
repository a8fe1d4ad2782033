/**
 * `controllers [component]`: one table of a controller manager's (or a controller-runtime
 * program's) controllers — start function, informers, queue, workers, sync handler.
 */
import type { Command } from 'commander';
import { outputWidth, useColor, type CliContext } from '../context.js';
import { outputOption, writeJson } from '../output.js';
import { addRepoOptions, type RepoOptions } from '../repo.js';
import { parsePositive } from '../trace-options.js';

interface ControllersFlags extends RepoOptions {
  output: 'text' | 'json';
  depth?: number;
  github?: string;
}

export function registerControllersCommand(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('controllers')
    .argument(
      '[component]',
      "a component (default: kube-controller-manager, else the tree's controller-runtime program, else its one program that uses a work queue)",
    )
    .description(
      'One table of the controllers a program runs: name -> start function -> informers watched -> queue -> workers -> sync handler, each with its file:line, or why it was not found. Read off the same one-program call graph as `trace <component>/<name>`.',
    );
  addRepoOptions(cmd)
    .option(
      '--depth <n>',
      'calls followed from each start function (default: 10)',
      parsePositive('--depth'),
    )
    .option(
      '--github <owner/repo>',
      'GitHub repository for permalinks (default: from the origin remote)',
    )
    .addOption(outputOption(['text', 'json'], 'text'))
    .addHelpText(
      'after',
      '\nEach controller is a few lines, one per part, each with the file:line that says it:\n' +
        "  start     the function the registry (or the reconciler's setup) names\n" +
        '  informer  an AddEventHandler call -> the handlers it registers (For/Owns/Watches for\n' +
        '            controller-runtime)\n' +
        '  queue     the queue the handlers Add to -> the function that Gets from it\n' +
        '  worker    the function wait.Until* keeps running\n' +
        '  sync      what the queue consumer hands each item to (the Reconcile method)\n' +
        'A part the call graph does not show reads "not found: <why>"; nothing is guessed.\n' +
        '`k8s-read tui` starts on the same table.\n' +
        '\nExamples:\n  k8s-read controllers\n  k8s-read controllers --repo ~/src/kubernetes\n' +
        '  k8s-read controllers memcached-operator --repo ~/src/memcached-operator\n' +
        "  k8s-read controllers -o json | jq '.controllers[] | select(.sync == []) | .name'\n" +
        '  k8s-read trace kube-controller-manager/replicaset   # one row as a trace\n',
    )
    .action(async (component: string | undefined, flags: ControllersFlags) => {
      const { openIndex } = await import('../open-index.js');
      const { controllersOf } = await import('../load-controllers.js');
      const index = await openIndex(ctx, {
        ...(flags.repo ? { repo: flags.repo } : {}),
        ...(flags.db ? { db: flags.db } : {}),
        ...(flags.with ? { with: flags.with } : {}),
      });
      try {
        const table = await controllersOf(ctx, index, {
          ...(component !== undefined ? { component } : {}),
          ...(flags.depth !== undefined ? { depth: flags.depth } : {}),
          ...(flags.github ? { github: flags.github } : {}),
        });
        if (flags.output === 'json') {
          writeJson(ctx.stdout, table);
          return;
        }
        const { renderControllers } = await import('../../export/controllers.js');
        ctx.stdout.write(
          renderControllers(table, { color: useColor(ctx), width: outputWidth(ctx) }),
        );
      } finally {
        await index.close();
      }
    });
}

import type { Command } from 'commander';
import { outputWidth, useColor, type CliContext } from '../context.js';
import { outputOption, writeJson } from '../output.js';
import { addRepoOptions, type RepoOptions } from '../repo.js';
import { skipOptimizingCompiler } from '../short-run.js';
import {
  addTraceViewOptions,
  parsePositive,
  traceViewOptions,
  type TraceViewFlags,
} from '../trace-options.js';

interface TraceFlags extends RepoOptions, TraceViewFlags {
  output: 'tree' | 'json';
}

interface GraphFlags extends RepoOptions {
  depth: number;
  output: 'text' | 'json';
}

export function registerTraceCommands(program: Command, ctx: CliContext): void {
  const trace = program
    .command('trace')
    .argument(
      '<component|symbol>',
      "a component: a main package by its name (cmd/kube-scheduler is kube-scheduler; elsewhere its directory, etcd's server/ is server); kube-controller-manager/<controller>; or a function symbol (a component's main is traced as the component)",
    )
    .description(
      "Follow the calls from a component's main() through cobra, leader election, goroutines, function values, channels and interfaces into its loops. A trace is one program: only packages main imports (transitively) can be reached, and a function passed as a parameter is what the caller on the path passed. Every hop has its file:line; non-static hops say how they were found.",
    );
  addTraceViewOptions(addRepoOptions(trace))
    .addOption(outputOption(['tree', 'json'], 'tree'))
    .addHelpText(
      'after',
      '\nExamples:\n  k8s-read trace kube-scheduler\n  k8s-read trace kube-controller-manager/replicaset\n' +
        '  k8s-read trace kube-scheduler --focus selectHost\n  k8s-read trace "(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne" --depth 3\n' +
        "  k8s-read trace 'wait.BackoffUntil' --in kube-scheduler   # a helper, inside one program\n" +
        '  k8s-read trace kube-scheduler -o json | jq \'.edges[] | select(.kind == "framework")\'\n' +
        '\nThe answer is kept in the index database: the same trace asked again (same flags, index,\n' +
        'rules and build) is read back, and what it printed is kept in the cache directory\n' +
        '(answers/) and printed again while HEAD, the index file, rules/ and the build are as they\n' +
        'were. K8S_READ_TRACE_CACHE=off traces afresh and keeps nothing.\n',
    )
    .action(async (target: string, flags: TraceFlags) => {
      skipOptimizingCompiler();
      const { loadTrace } = await import('../load-trace.js');
      const result = await loadTrace(ctx, {
        target,
        ...(flags.repo ? { repo: flags.repo } : {}),
        ...(flags.db ? { db: flags.db } : {}),
        ...traceViewOptions(flags),
      });
      if (flags.output === 'json') {
        writeJson(ctx.stdout, result);
        return;
      }
      const { renderers } = await import('../../export/renderers.js');
      const { defaultRenderOptions } = await import('../../export/types.js');
      ctx.stdout.write(
        await renderers.tree(result, {
          ...defaultRenderOptions,
          color: useColor(ctx),
          width: outputWidth(ctx),
        }),
      );
    });

  for (const direction of ['callers', 'callees'] as const) {
    const cmd = program
      .command(direction)
      .argument(
        '<symbol>',
        'a function or method: full symbol, or a suffix such as Scheduler).scheduleOne or scheduleOne',
      )
      .description(
        direction === 'callers'
          ? 'Who calls this function (every resolved call site, with how it was found).'
          : 'What this function calls (resolved targets, alternatives for interface calls, unresolved calls).',
      );
    addRepoOptions(cmd)
      .option('--depth <n>', 'follow this many levels', parsePositive('--depth'), 1)
      .addOption(outputOption(['text', 'json'], 'text'))
      .action(async (symbol: string, flags: GraphFlags) => {
        const { graphNeighbours, renderNeighbours } = await import('../graph-queries.js');
        const result = await graphNeighbours(ctx, flags, symbol, direction, flags.depth);
        if (flags.output === 'json') writeJson(ctx.stdout, result);
        else ctx.stdout.write(renderNeighbours(result, useColor(ctx)));
      });
  }

  const impls = program
    .command('impls')
    .argument('<interface>', 'an interface type, e.g. framework.Framework or PodControlInterface')
    .description(
      'The types that implement an interface, and where values are stored into fields and variables of that interface type.',
    );
  addRepoOptions(impls)
    .addOption(outputOption(['text', 'json'], 'text'))
    .action(async (name: string, flags: GraphFlags) => {
      const { findImplementations, renderImplementations } = await import('../graph-queries.js');
      const result = await findImplementations(ctx, flags, name);
      if (flags.output === 'json') writeJson(ctx.stdout, result);
      else ctx.stdout.write(renderImplementations(result));
    });

  const struct = program
    .command('struct')
    .argument('<type>', 'a struct type, e.g. v1.Pod or k8s.io/api/core/v1.Pod')
    .description(
      'A struct with its embedded structs expanded: own and promoted fields and methods (Pod = TypeMeta + ObjectMeta + Spec + Status).',
    );
  addRepoOptions(struct)
    .addOption(outputOption(['text', 'json'], 'text'))
    .action(async (name: string, flags: GraphFlags) => {
      const { describeStruct, renderStruct } = await import('../graph-queries.js');
      const result = await describeStruct(ctx, flags, name);
      if (flags.output === 'json') writeJson(ctx.stdout, result);
      else ctx.stdout.write(renderStruct(result));
    });

  const assigns = program
    .command('assigns')
    .argument(
      '<Type.field>',
      'a struct field, e.g. Scheduler.SchedulePod or ReplicaSetController.syncHandler',
    )
    .description(
      'Who fills this field: every assignment and keyed literal that stores into it, with the value and its type.',
    );
  addRepoOptions(assigns)
    .addOption(outputOption(['text', 'json'], 'text'))
    .action(async (field: string, flags: GraphFlags) => {
      const { findAssignments, renderAssignments } = await import('../graph-queries.js');
      const result = await findAssignments(ctx, flags, field);
      if (flags.output === 'json') writeJson(ctx.stdout, result);
      else ctx.stdout.write(renderAssignments(result));
    });
}

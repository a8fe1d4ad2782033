/**
 * `k8s-read export trace <target>`: the trace drawn for slides, design docs and blog posts, in
 * any format of the renderer registry. The spec below loads only the registry (small, pure
 * functions); the trace, the index and Graphviz load in the action.
 */
import path from 'node:path';
import { Option, type Command } from 'commander';
import { renderers, type RenderFormat } from '../../export/renderers.js';
import {
  clusterChoices,
  defaultRenderOptions,
  styleChoices,
  type RenderOptions,
} from '../../export/types.js';
import { outputWidth, useColor, type CliContext } from '../context.js';
import { outputOption } from '../output.js';
import { addRepoOptions, type RepoOptions } from '../repo.js';
import {
  addTraceViewOptions,
  parsePositive,
  traceViewOptions,
  type TraceViewFlags,
} from '../trace-options.js';

interface ExportTraceFlags extends RepoOptions, TraceViewFlags {
  output: RenderFormat;
  style: RenderOptions['style'];
  cluster: RenderOptions['cluster'];
  maxNodes?: number;
  out?: string;
}

const formats = Object.keys(renderers) as RenderFormat[];

/** `--out sched.svg` alone is enough to ask for SVG; an explicit `-o` still wins. */
const formatByExtension: Record<string, RenderFormat> = {
  '.svg': 'svg',
  '.dot': 'dot',
  '.gv': 'dot',
  '.mmd': 'mermaid',
  '.mermaid': 'mermaid',
  '.md': 'md',
  '.markdown': 'md',
  '.json': 'json',
  '.txt': 'tree',
};

export function registerExportCommand(program: Command, ctx: CliContext): void {
  const group = program
    .command('export')
    .description(
      'Draw what k8s-read found, with links back to the code: for slides, design docs and blog posts.',
    );
  const cmd = group
    .command('trace')
    .description(
      'Draw the call trace of a component (or from a symbol) as Mermaid, Graphviz DOT, SVG, a Markdown report or JSON. ' +
        'It draws the trace `k8s-read trace` prints for the same flags; nodes link to GitHub permalinks at the indexed commit; --max-nodes folds a large trace into "… N more" nodes.',
    )
    .argument('<target>', 'a component (kube-scheduler) or a function symbol to start from');
  // The trace's own flags, as `k8s-read trace` has them, so an export draws the trace a reader saw.
  addTraceViewOptions(addRepoOptions(cmd))
    .addOption(outputOption(formats, 'mermaid'))
    .addOption(
      new Option('--style <style>', 'Mermaid: a flowchart, or a sequence diagram of the spine')
        .choices(styleChoices)
        .default(defaultRenderOptions.style),
    )
    .addOption(
      new Option('--cluster <by>', 'group diagram nodes by Go package, by file, or not at all')
        .choices(clusterChoices)
        .default(defaultRenderOptions.cluster),
    )
    .option(
      '--max-nodes <n>',
      'diagrams keep N functions and fold the rest into "… N more" nodes (default: the whole trace, as `trace` shows it)',
      parsePositive('--max-nodes'),
    )
    .option(
      '--out <file>',
      'write to FILE instead of stdout (the format follows its extension unless -o is given)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  k8s-read export trace kube-scheduler -o mermaid > sched.mmd\n' +
        '  k8s-read export trace kube-scheduler --out sched.svg            # SVG, nodes link to GitHub\n' +
        '  k8s-read export trace kube-scheduler -o md --style sequence --out sched.md\n' +
        '  k8s-read export trace kube-scheduler -o dot --cluster file --max-nodes 120 | dot -Tpng > sched.png\n',
    )
    .action(async (target: string, flags: ExportTraceFlags, command: Command) => {
      const out = flags.out === undefined ? undefined : path.resolve(ctx.cwd, flags.out);
      const format = chooseFormat(
        flags.output,
        command.getOptionValueSource('output') === 'default',
        out,
      );
      const { checkOutputFile, writeOutputFile } = await import('../../export/output-file.js');
      // Fail on a bad path before spending seconds on the trace.
      if (out) checkOutputFile(out);
      const [{ loadTrace }, { assertDrawable }] = await Promise.all([
        import('../load-trace.js'),
        import('../../export/errors.js'),
      ]);
      const trace = await loadTrace(ctx, {
        target,
        ...(flags.repo === undefined ? {} : { repo: flags.repo }),
        ...(flags.db === undefined ? {} : { db: flags.db }),
        ...traceViewOptions(flags),
      });
      assertDrawable(trace);
      const text = await renderers[format](trace, {
        color: format === 'tree' && out === undefined && useColor(ctx),
        style: flags.style,
        cluster: flags.cluster,
        ...(flags.maxNodes === undefined ? {} : { maxNodes: flags.maxNodes }),
        // A tree on the terminal fits it; one written to a file keeps every symbol whole.
        ...(format === 'tree' && out === undefined ? { width: outputWidth(ctx) } : {}),
      });
      if (out === undefined) {
        ctx.stdout.write(text);
        return;
      }
      writeOutputFile(out, text);
      const shown = out.startsWith(ctx.cwd + path.sep) ? path.relative(ctx.cwd, out) : out;
      ctx.stderr.write(`wrote ${shown} (${format}, ${formatSize(Buffer.byteLength(text))})\n`);
    });

  const tour = group
    .command('tour')
    .argument('<name>', 'a tour from `k8s-read tour list`')
    .description(
      'Write a tour as a Markdown article: its steps, the prose, the code each step anchors to, with permalinks at the indexed commit.',
    );
  addRepoOptions(tour)
    .addOption(new Option('-o, --output <format>', 'output format').choices(['md']).default('md'))
    .option('--guides <dir>', 'read tours from this directory instead of the bundled guides/')
    .option('--out <file>', 'write to FILE instead of stdout')
    .action(async (name: string, flags: RepoOptions & { guides?: string; out?: string }) => {
      const out = flags.out === undefined ? undefined : path.resolve(ctx.cwd, flags.out);
      const { checkOutputFile, writeOutputFile } = await import('../../export/output-file.js');
      if (out) checkOutputFile(out);
      const { exportTourMarkdown } = await import('../tour-actions.js');
      const text = await exportTourMarkdown(ctx, name, {
        ...(flags.repo === undefined ? {} : { repo: flags.repo }),
        ...(flags.db === undefined ? {} : { db: flags.db }),
        ...(flags.guides === undefined ? {} : { guides: flags.guides }),
      });
      if (out === undefined) {
        ctx.stdout.write(text);
        return;
      }
      writeOutputFile(out, text);
      ctx.stderr.write(`wrote ${out} (md, ${formatSize(Buffer.byteLength(text))})\n`);
    });
}

function chooseFormat(
  output: RenderFormat,
  isDefault: boolean,
  out: string | undefined,
): RenderFormat {
  if (!isDefault || out === undefined) return output;
  return formatByExtension[path.extname(out).toLowerCase()] ?? output;
}

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} kB`;
}

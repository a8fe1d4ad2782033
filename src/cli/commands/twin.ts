/**
 * `twin list | run | check | show`: the runnable TypeScript twins of the machinery a reader
 * traces. The specs are here; the twins (src/twins) are lazy-loaded in the actions, so `--help`
 * stays instant. `run` needs no index; `check` compares the twins' `@mirrors` tags with the index
 * of the chosen tree; `show` prints the twin of a Go symbol from the tags alone.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { SymbolNotFoundError, UsageError } from '../../errors.js';
import type { CliContext } from '../context.js';
import { outputOption, writeJson } from '../output.js';
import { packageRoot } from '../../shared/package-root.js';
import { addRepoOptions, type RepoOptions } from '../repo.js';

interface OutputOptions {
  output: 'text' | 'json';
}

interface RunOptions extends OutputOptions {
  scenario?: string;
  seed?: number;
  speed?: true | number;
}

export function registerTwinCommands(program: Command, ctx: CliContext): void {
  const twin = program
    .command('twin')
    .description(
      'run small TypeScript twins of the Kubernetes machinery and see events flow (informer, work queue, scheduler, ...)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  k8s-read twin list\n' +
        '  k8s-read twin run informer\n' +
        '  k8s-read twin run scheduler --seed 7 -o json\n' +
        '  k8s-read twin run workqueue --scenario my-queue.yaml --speed\n' +
        "  k8s-read twin show '(*k8s.io/client-go/util/workqueue.Type).Add'\n" +
        '  k8s-read twin check --repo ~/src/kubernetes\n',
    );

  twin
    .command('list')
    .description('the twins, what each one mirrors, and its default scenario')
    .addOption(outputOption(['text', 'json'], 'text'))
    .action((options: OutputOptions) => runList(options, ctx));

  twin
    .command('run')
    .description(
      'run a twin on a scenario and print the timeline: what happens, where, and the Go symbol it mirrors',
    )
    .argument(
      '<name>',
      'the twin: apiserver, reflector, deltafifo, indexer, informer, workqueue, controller, replicaset, scheduler, controller-runtime',
    )
    .option('--scenario <file>', 'a scenario YAML file (default: guides/scenarios/<name>.yaml)')
    .option(
      '--seed <n>',
      "the random seed: same seed, same timeline (default: the scenario's seed, else 1)",
      parseSeed,
    )
    .option(
      '--speed [factor]',
      'print the timeline in real time, factor times faster (default 1); without it, at once',
      parseSpeed,
    )
    .addOption(outputOption(['text', 'json'], 'text'))
    .action((name: string, options: RunOptions) => runTwin(name, options, ctx));

  addRepoOptions(
    twin
      .command('check')
      .description(
        'check every @mirrors tag of the twins against the index: which Go symbols no longer exist in this tree',
      )
      .addOption(outputOption(['text', 'json'], 'text')),
  ).action((options: OutputOptions & RepoOptions) => runCheck(options, ctx));

  twin
    .command('show')
    .description(
      'the TypeScript twin of a Go symbol (exact, or a suffix such as Type.Add or scheduleOne)',
    )
    .argument('<go-symbol>', "e.g. '(*k8s.io/client-go/util/workqueue.Type).Add'")
    .addOption(outputOption(['text', 'json'], 'text'))
    .action((symbol: string, options: OutputOptions) => runShow(symbol, options, ctx));
}

function parseSeed(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 2 ** 32 - 1)
    throw new InvalidArgumentError('write a whole number from 0 to 4294967295');
  return Number(value);
}

function parseSpeed(value: string): number {
  const factor = Number(value);
  if (!Number.isFinite(factor) || factor <= 0)
    throw new InvalidArgumentError('write a positive factor, e.g. --speed 2 for twice real time');
  return factor;
}

async function runList(options: OutputOptions, ctx: CliContext): Promise<void> {
  const { listTwins } = await import('../../twins/catalog.js');
  const twins = listTwins();
  if (options.output === 'json') {
    writeJson(ctx.stdout, twins);
    return;
  }
  const width = Math.max(...twins.map((t) => t.name.length));
  for (const t of twins)
    ctx.stdout.write(
      `${t.name.padEnd(width)}  ${t.title}\n${''.padEnd(width)}  mirrors ${t.mirrors[0]}${t.mirrors.length > 1 ? ', ...' : ''}\n`,
    );
  ctx.stdout.write(
    '\nrun one with `k8s-read twin run <name>`; scenarios are in guides/scenarios/\n',
  );
}

async function runTwin(name: string, options: RunOptions, ctx: CliContext): Promise<void> {
  const [{ findTwin, defaultScenarioPath }, { renderTimelineLines }] = await Promise.all([
    import('../../twins/catalog.js'),
    import('../../twins/render.js'),
  ]);
  const twin = findTwin(name);
  const scenarioFile = options.scenario
    ? path.resolve(ctx.cwd, options.scenario)
    : defaultScenarioPath(packageRoot, twin.name);
  const shown = options.scenario ?? path.relative(packageRoot, scenarioFile);
  const { result, description } = twin.run(scenarioFile, options.seed, shown);
  if (options.output === 'json') {
    writeJson(ctx.stdout, result);
    return;
  }
  ctx.stdout.write(
    `# twin ${result.twin}, seed ${result.seed}, scenario ${shown}${description ? `\n# ${description}` : ''}\n`,
  );
  const lines = renderTimelineLines(result.events);
  if (options.speed === undefined) {
    ctx.stdout.write(lines.map((line) => `${line}\n`).join(''));
    return;
  }
  // Pace the lines by virtual time, for a human watching the flow.
  const factor = options.speed === true ? 1 : options.speed;
  let previous = 0;
  for (let i = 0; i < lines.length; i++) {
    const t = result.events[i]!.t;
    if (t > previous) await delay(((t - previous) * 1000) / factor);
    previous = t;
    ctx.stdout.write(`${lines[i]}\n`);
  }
}

function twinsSourceDir(): string {
  const dir = path.join(packageRoot, 'src', 'twins');
  if (!existsSync(dir)) {
    throw new UsageError(
      `the twins' TypeScript sources are not at ${dir}; run k8s-read from a checkout of its repository (the @mirrors tags are read from the sources)`,
    );
  }
  return dir;
}

async function runCheck(options: OutputOptions & RepoOptions, ctx: CliContext): Promise<void> {
  const [{ readMirrorTags, checkMirrors }, { openIndex }, { symbolsExist }] = await Promise.all([
    import('../../twins/mirror-tags.js'),
    import('../open-index.js'),
    import('../../store/symbols.js'),
  ]);
  const tags = await readMirrorTags(twinsSourceDir());
  const index = await openIndex(ctx, options);
  try {
    const report = await checkMirrors(tags, (symbols) =>
      symbolsExist(index.store, index.treeId, symbols),
    );
    if (options.output === 'json') {
      writeJson(ctx.stdout, report);
      return;
    }
    const declarations = new Set(tags.map((t) => `${t.file}:${t.line}`)).size;
    ctx.stdout.write(
      `${report.mirrors} @mirrors tags on ${declarations} twin declarations checked against ${index.choice.root}\n`,
    );
    if (report.missing.length === 0) {
      ctx.stdout.write('every twin declaration names a symbol that exists in this tree\n');
      return;
    }
    ctx.stdout.write(
      `${report.missing.length} symbol(s) not in this tree (a declaration is fine when any of its tags exists):\n`,
    );
    const width = Math.max(...report.missing.map((m) => m.twin.length));
    for (const m of report.missing) ctx.stdout.write(`  ${m.twin.padEnd(width)}  ${m.symbol}\n`);
  } finally {
    await index.close();
  }
}

async function runShow(symbol: string, options: OutputOptions, ctx: CliContext): Promise<void> {
  const { readMirrorTags, findTwinsForSymbol } = await import('../../twins/mirror-tags.js');
  const tags = await readMirrorTags(twinsSourceDir());
  const matches = findTwinsForSymbol(tags, symbol);
  if (matches.length === 0) {
    const last = symbol.split(/[.)]/).filter(Boolean).pop() ?? symbol;
    const suggestions = [
      ...new Set(
        tags.map((t) => t.symbol).filter((s) => s.toLowerCase().includes(last.toLowerCase())),
      ),
    ].slice(0, 8);
    throw new SymbolNotFoundError(
      symbol,
      suggestions.length > 0
        ? suggestions
        : ['(see `k8s-read twin list` for what the twins mirror)'],
    );
  }
  if (options.output === 'json') {
    writeJson(ctx.stdout, matches);
    return;
  }
  for (const m of matches) {
    ctx.stdout.write(
      `${m.file}:${m.line}  ${m.twin} ${m.exportName}  (mirrors ${m.symbol})\n${m.text}\n\n`,
    );
  }
}

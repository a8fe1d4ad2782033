/**
 * Parses arguments and runs one command. The only place that prints errors: a K8sReadError is a
 * message for the user (`error: ...`, its exit code); anything else is a bug (stack, exit 1).
 */
import { Command, CommanderError } from 'commander';
import { K8sReadError } from '../errors.js';
import type { CliContext } from './context.js';
import { commandModules, modulesFor, type CommandModule } from './commands/index.js';
import { readPackageVersion } from './package-info.js';

export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  try {
    const program = await buildProgram(ctx, modulesFor(argv));
    await program.parseAsync([...argv], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    return reportError(error, ctx);
  }
}

export async function buildProgram(
  ctx: CliContext,
  modules: readonly CommandModule[] = commandModules,
): Promise<Command> {
  const program = new Command('k8s-read')
    .description(
      'A companion for reading the Kubernetes source code: index a checkout, trace a component ' +
        'from main() into its loops, find who wrote a line and in which pull request, take guided ' +
        'tours, and run small TypeScript twins of the machinery.\n\n' +
        'Without --repo (or KUBERNETES_SRC, or a Go checkout around the current directory) every ' +
        'command runs on the bundled demo tree.',
    )
    .version(readPackageVersion(), '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    })
    .exitOverride();
  program.addHelpText(
    'after',
    '\nExamples:\n' +
      '  k8s-read index --repo ~/src/kubernetes\n' +
      '  k8s-read trace kube-scheduler\n' +
      '  k8s-read blame pkg/scheduler/schedule_one.go:96\n' +
      '  k8s-read tour kube-scheduler\n' +
      '  k8s-read twin run informer\n' +
      '  k8s-read export trace kube-scheduler -o svg --out sched.svg\n',
  );
  for (const register of await Promise.all(modules.map((m) => m.load()))) register(program, ctx);
  // The command list shows one short line each; `<command> --help` keeps the whole description.
  for (const cmd of program.commands) if (!cmd.summary()) cmd.summary(summarize(cmd.description()));
  return program;
}

/** The first sentence of a description, capitalized, without its period, at most ~70 characters. */
export function summarize(description: string): string {
  const first = (description.split(/(?<=[.;:])\s|\s\(|:\s/)[0] ?? description)
    .replace(/[.;:]$/, '')
    .trim();
  const cut = first.length > 72 ? `${first.slice(0, first.lastIndexOf(' ', 70))}…` : first;
  return cut.charAt(0).toUpperCase() + cut.slice(1);
}

function reportError(error: unknown, ctx: CliContext): number {
  if (error instanceof CommanderError) {
    // Help and version are "errors" to commander; they are successes to a user.
    if (
      error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help'
    )
      return 0;
    return error.exitCode === 0 ? 0 : 2;
  }
  if (error instanceof K8sReadError) {
    ctx.stderr.write(`error: ${error.message}\n`);
    return error.exitCode;
  }
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  ctx.stderr.write(`k8s-read: unexpected error (please report it)\n${stack}\n`);
  return 1;
}

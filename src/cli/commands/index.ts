import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export type RegisterCommands = (program: Command, ctx: CliContext) => void;

export interface CommandModule {
  /** The top-level commands the module registers (a test keeps this list true). */
  names: readonly string[];
  load(): Promise<RegisterCommands>;
}

/**
 * Every command group, in the order `--help` lists them. Each file holds specs; actions lazy-load.
 * The specs load lazily too: `k8s-read blame x` registers only the module of `blame` (commander
 * and all eight spec modules cost ~45 ms of CPU; one of them ~25).
 */
export const commandModules: readonly CommandModule[] = [
  {
    names: ['index'],
    load: async () => (await import('./index-command.js')).registerIndexCommand,
  },
  {
    names: ['def', 'search', 'stats'],
    load: async () => (await import('./query.js')).registerQueryCommands,
  },
  {
    names: ['trace', 'callers', 'callees', 'impls', 'struct', 'assigns'],
    load: async () => (await import('./trace.js')).registerTraceCommands,
  },
  {
    names: ['controllers'],
    load: async () => (await import('./controllers.js')).registerControllersCommand,
  },
  {
    names: ['blame', 'history', 'pr'],
    load: async () => (await import('./blame.js')).registerBlameCommands,
  },
  { names: ['tour', 'tui'], load: async () => (await import('./tour.js')).registerTourCommands },
  { names: ['twin'], load: async () => (await import('./twin.js')).registerTwinCommands },
  { names: ['export'], load: async () => (await import('./export.js')).registerExportCommand },
];

/** The modules to register for these arguments: the named command's alone, else all (help, typos). */
export function modulesFor(argv: readonly string[]): readonly CommandModule[] {
  const first = argv[0];
  const named = commandModules.find((m) => first !== undefined && m.names.includes(first));
  return named ? [named] : commandModules;
}

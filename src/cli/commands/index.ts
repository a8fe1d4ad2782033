import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerBlameCommands } from './blame.js';
import { registerExportCommand } from './export.js';
import { registerIndexCommand } from './index-command.js';
import { registerQueryCommands } from './query.js';
import { registerTourCommands } from './tour.js';
import { registerTraceCommands } from './trace.js';
import { registerTwinCommands } from './twin.js';

export type RegisterCommands = (program: Command, ctx: CliContext) => void;

/** Every command group, in the order `--help` lists them. Each file holds specs; actions lazy-load. */
export const commandModules: readonly RegisterCommands[] = [
  registerIndexCommand,
  registerQueryCommands,
  registerTraceCommands,
  registerBlameCommands,
  registerTourCommands,
  registerTwinCommands,
  registerExportCommand,
];

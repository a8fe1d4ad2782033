import type { Command } from 'commander';
import { K8sReadError } from '../../errors.js';
import type { CliContext } from '../context.js';

export function registerTourCommands(program: Command, _ctx: CliContext): void {
  program
    .command('tour')
    .description('(not built yet)')
    .allowUnknownOption()
    .argument('[args...]')
    .action(() => {
      throw new K8sReadError('`k8s-read tour` is not built yet');
    });
}

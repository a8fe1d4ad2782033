import type { Command } from 'commander';
import { K8sReadError } from '../../errors.js';
import type { CliContext } from '../context.js';

export function registerBlameCommands(program: Command, _ctx: CliContext): void {
  program
    .command('blame')
    .description('(not built yet)')
    .allowUnknownOption()
    .argument('[args...]')
    .action(() => {
      throw new K8sReadError('`k8s-read blame` is not built yet');
    });
}

import type { Command } from 'commander';
import { K8sReadError } from '../../errors.js';
import type { CliContext } from '../context.js';

export function registerIndexCommand(program: Command, _ctx: CliContext): void {
  program
    .command('index')
    .description('(not built yet)')
    .allowUnknownOption()
    .argument('[args...]')
    .action(() => {
      throw new K8sReadError('`k8s-read index` is not built yet');
    });
}

import type { Command } from 'commander';
import { K8sReadError } from '../../errors.js';
import type { CliContext } from '../context.js';

export function registerTwinCommands(program: Command, _ctx: CliContext): void {
  program
    .command('twin')
    .description('(not built yet)')
    .allowUnknownOption()
    .argument('[args...]')
    .action(() => {
      throw new K8sReadError('`k8s-read twin` is not built yet');
    });
}

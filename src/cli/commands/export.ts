import type { Command } from 'commander';
import { K8sReadError } from '../../errors.js';
import type { CliContext } from '../context.js';

export function registerExportCommand(program: Command, _ctx: CliContext): void {
  program
    .command('export')
    .description('(not built yet)')
    .allowUnknownOption()
    .argument('[args...]')
    .action(() => {
      throw new K8sReadError('`k8s-read export` is not built yet');
    });
}

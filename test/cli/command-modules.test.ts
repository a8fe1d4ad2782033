/**
 * `k8s-read <command>` registers only that command's module (start-up time); the names each module
 * declares must be the commands it registers, or a command would go missing.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { commandModules, modulesFor } from '../../src/cli/commands/index.js';
import { buildProgram } from '../../src/cli/main.js';

const quiet = new Writable({ write: (_c, _e, done) => done() });
const ctx = { stdout: quiet, stderr: quiet, env: {}, cwd: process.cwd() };

describe('command modules', () => {
  it('declare exactly the commands they register', async () => {
    for (const module of commandModules) {
      const program = await buildProgram(ctx, [module]);
      expect(program.commands.map((c) => c.name()).sort()).toEqual([...module.names].sort());
    }
  });

  it('are all registered for help, an option first or an unknown command', () => {
    for (const argv of [[], ['--help'], ['-V'], ['blam'], ['help', 'blame']])
      expect(modulesFor(argv)).toBe(commandModules);
    expect(modulesFor(['blame', 'x.go']).map((m) => m.names)).toEqual([['blame', 'history', 'pr']]);
  });
});

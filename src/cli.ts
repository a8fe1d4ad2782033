#!/usr/bin/env node
// The entry stays tiny so that `k8s-read --help` loads nothing but the argument parser.
import type { CliContext } from './cli/context.js';

/** Commands whose printed answer may be kept and printed again (src/cli/replay.ts). */
const REPLAYED = ['trace', 'blame'];

// `k8s-read trace x | head`: the reader closed the pipe; that is the end of the output, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const argv = process.argv.slice(2);
const ctx: CliContext = {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
};

if (REPLAYED.includes(argv[0] ?? '')) {
  // Before commander, sqlite3 or the command's modules load: printing a kept answer needs none.
  const { replay, recording } = await import('./cli/replay.js');
  if (replay(argv, ctx)) {
    process.exitCode = 0;
  } else {
    const run = recording(argv, ctx);
    process.exitCode = await (await import('./cli/main.js')).runCli(argv, run.ctx);
    run.finish(process.exitCode);
  }
} else {
  process.exitCode = await (await import('./cli/main.js')).runCli(argv, ctx);
}

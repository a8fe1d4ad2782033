#!/usr/bin/env node
// The entry stays tiny so that `k8s-read --help` loads nothing but the argument parser.
import { runCli } from './cli/main.js';

// `k8s-read trace x | head`: the reader closed the pipe; that is the end of the output, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});

#!/usr/bin/env node
// The entry stays tiny so that `k8s-read --help` loads nothing but the argument parser.
import { runCli } from './cli/main.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});

#!/usr/bin/env node
// `npm run bench`: every benchmark in bench/, one after another (they share 2 cores badly).
// Real repositories are found at the paths each script documents; pass --only NAME to run one.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]
  : undefined;
const scripts = [
  'index',
  'history-walk',
  'trace',
  'blame',
  'blame-cli',
  'export',
  'twins',
  'tui',
].filter((s) => !only || s === only);
let failed = 0;
for (const name of scripts) {
  process.stdout.write(`\n## bench/${name}.mjs\n`);
  const r = spawnSync(process.execPath, [path.join(here, `${name}.mjs`)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;

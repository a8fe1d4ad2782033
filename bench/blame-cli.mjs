#!/usr/bin/env node
// `blame FILE:LINE` as a reader runs it: one CLI process per call, start-up included (issue 15:
// cached <= 200 ms, cold <= 500 ms on client-go). Each round runs, in turn, a bare `node -e 0`
// (the floor this machine gives any Node process at that moment), the cold call (a fresh cache
// database), the cached call (answered from the database, git not started) and the same call
// again (printed from the output the cached call kept: src/cli/replay.ts); the medians of wall
// and CPU time (user + system, children included, from /usr/bin/time) are printed. Runs the built
// CLI (npm run build first); the kept outputs go to the scratch directory's cache.
//
//   node bench/blame-cli.mjs [--runs 10] [--client-go /tmp/trees/client-go] [--scratch DIR]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    'client-go': { type: 'string', default: '/tmp/trees/client-go' },
    scratch: { type: 'string', default: '/tmp/k8s-read-bench' },
  },
});
const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const root = values['client-go'];
if (!existsSync(root)) {
  console.log(`skipped: no client-go checkout at ${root} (--client-go PATH)`);
  process.exit(0);
}
mkdirSync(values.scratch, { recursive: true });
const db = path.join(values.scratch, 'blame-cli.sqlite');
const target = 'tools/cache/shared_informer.go:500';

/** Wall and CPU seconds of one process, from /usr/bin/time (children included). */
function measure(argv) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', ...argv], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: path.join(values.scratch, 'cache') },
  });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed: ${r.stderr}`);
  const [wall, user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall: wall * 1000, cpu: (user + sys) * 1000 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = { floor: [], cold: [], cached: [], again: [] };
const blame = [process.execPath, cli, 'blame', target, '--repo', root, '--db', db];
for (let i = 0; i < Number(values.runs); i++) {
  runs.floor.push(measure([process.execPath, '-e', '0']));
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  runs.cold.push(measure(blame));
  runs.cached.push(measure(blame));
  runs.again.push(measure(blame));
}
const row = (name, xs) =>
  console.log(
    `${name.padEnd(32)} wall ${String(median(xs.map((x) => x.wall)).toFixed(0)).padStart(5)} ms   cpu ${String(median(xs.map((x) => x.cpu)).toFixed(0)).padStart(5)} ms`,
  );
console.log(`client-go, ${target}, median of ${values.runs}:`);
row('node -e 0 (floor)', runs.floor);
row('blame, cold (fresh cache)', runs.cold);
row('blame, cached', runs.cached);
row('blame, cached, printed again', runs.again);

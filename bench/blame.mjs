#!/usr/bin/env node
// Blame benchmarks on real histories (issue 4): one line's PR cold and cached, in-process, and a
// whole-file blame of a ~1,000-line file cold. Runs the built library (npm run build first).
//
//   node bench/blame.mjs [--repeat 3] [--scratch /tmp/k8s-read-bench]
//
// "Cold" is a fresh cache database and a fresh GitRepository (no commit graph in memory); git's
// own object files are warm in the OS page cache after the first run, as on any reader's machine.
// The checkouts are only read; the cache database lives under --scratch.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { blameFile } from '../dist/git/blame.js';
import { GitRepository } from '../dist/git/repository.js';
import { openGitCache } from '../dist/store/git-cache.js';

const { values } = parseArgs({
  options: {
    repeat: { type: 'string', default: '3' },
    scratch: { type: 'string', default: '/tmp/k8s-read-bench' },
  },
});
const repeat = Number(values.repeat);

const targets = [
  {
    name: 'kubernetes/client-go',
    root: '/tmp/k/kubernetes+client-go',
    github: null, // published staging repository: links go to kubernetes/kubernetes by the trailers
    line: { file: 'tools/cache/shared_informer.go', start: 500, end: 500 },
    whole: { file: 'tools/cache/controller.go' },
  },
  {
    name: 'kubernetes-sigs/controller-runtime',
    root: '/tmp/k/kubernetes-sigs+controller-runtime',
    github: 'kubernetes-sigs/controller-runtime', // the local clone's origin is a mirror path
    line: { file: 'pkg/internal/controller/controller.go', start: 200, end: 200 },
    whole: { file: 'pkg/client/options.go' },
  },
];

mkdirSync(values.scratch, { recursive: true });

async function time(fn) {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}

function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function freshCache(name) {
  const dbPath = path.join(values.scratch, `${name.replace(/\W+/g, '-')}.sqlite`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
  return openGitCache(dbPath);
}

const fmt = (ms) => `${ms.toFixed(0).padStart(5)} ms`;

for (const t of targets) {
  if (!existsSync(t.root)) {
    console.log(`${t.name}: skipped, no checkout at ${t.root}`);
    continue;
  }
  const context = (cache) => ({ cache, github: t.github });
  const runs = {
    lineCold: [],
    lineCachedSameRepo: [],
    lineCachedNewRepo: [],
    wholeCold: [],
    wholeCached: [],
  };
  let sample;
  let wholeLines = 0;
  let commits = 0;
  for (let i = 0; i < repeat; i++) {
    let cache = await freshCache(t.name);
    const repo = await GitRepository.open(t.root);
    const cold = await time(() => blameFile(repo, t.line, {}, context(cache)));
    runs.lineCold.push(cold.ms);
    sample = cold.result[0];
    runs.lineCachedSameRepo.push(
      (await time(() => blameFile(repo, t.line, {}, context(cache)))).ms,
    );
    const again = await GitRepository.open(t.root);
    runs.lineCachedNewRepo.push(
      (await time(() => blameFile(again, t.line, {}, context(cache)))).ms,
    );
    commits = (await repo.mainline(await repo.head())).size;
    await cache.close();

    cache = await freshCache(t.name);
    const wholeRepo = await GitRepository.open(t.root);
    const whole = await time(() => blameFile(wholeRepo, t.whole, {}, context(cache)));
    runs.wholeCold.push(whole.ms);
    wholeLines = whole.result.length;
    runs.wholeCached.push(
      (
        await time(async () =>
          blameFile(await GitRepository.open(t.root), t.whole, {}, context(cache)),
        )
      ).ms,
    );
    await cache.close();
  }
  console.log(`${t.name} (${commits} commits in HEAD's history), median of ${repeat}:`);
  console.log(
    `  one line, cold                        ${fmt(median(runs.lineCold))}   ${t.line.file}:${t.line.start} -> #${sample?.pr?.number ?? '-'}`,
  );
  console.log(`  one line, cached (same repo object)   ${fmt(median(runs.lineCachedSameRepo))}`);
  console.log(`  one line, cached (new repo object)    ${fmt(median(runs.lineCachedNewRepo))}`);
  console.log(
    `  whole file, cold                      ${fmt(median(runs.wholeCold))}   ${t.whole.file} (${wholeLines} lines)`,
  );
  console.log(`  whole file, cached                    ${fmt(median(runs.wholeCached))}`);
}

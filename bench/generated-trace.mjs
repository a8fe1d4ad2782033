// A large, deterministic trace for the export renderers: shared by bench/export.mjs (which runs
// on the built JavaScript, without TypeScript) and by the tests (test/export/sample-traces.ts).
// Types: generated-trace.d.mts.

const commit = '941a0be80ab3ce0fdbe23c9d3cd786b1586a4845';
const blob = `https://github.com/kubernetes/kubernetes/blob/${commit}`;
const edgeKinds = [
  'static',
  'static',
  'static',
  'interface',
  'funcvalue',
  'closure',
  'framework',
  'goroutine',
];

/**
 * A trace of `size` functions in `packages` packages: a random call tree from the root plus
 * `extraCalls` more calls (shared helpers, cycles), drawn from a fixed seed so every run is the
 * same. Real traces are more tree-like, so this is the harder case for a layout.
 */
export function generatedTrace(size = 300, extraCalls = size, packages = 24) {
  let seed = 42;
  const random = (n) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    // The high bits: an LCG's low bits repeat with a short period.
    return Math.floor(seed / 2 ** 16) % n;
  };
  const nodes = [];
  for (let i = 0; i < size; i++) {
    const pkgNumber = i === 0 ? 0 : 1 + random(packages - 1);
    const pkg = `k8s.io/kubernetes/pkg/generated/part${pkgNumber}`;
    const file = `pkg/generated/part${pkgNumber}/file${i % 3}.go`;
    const method = i % 4 === 1;
    const symbol = method ? `(*${pkg}.Type${i % 7}).Method${i}` : `${pkg}.Func${i}`;
    const line = 10 + i;
    nodes.push({
      symbol,
      file,
      line,
      kind: method ? 'method' : 'func',
      package: pkg,
      url: `${blob}/${file}#L${line}`,
    });
  }
  const edges = [];
  const call = (caller, callee) =>
    edges.push({
      caller: caller.symbol,
      callee: callee.symbol,
      site: `${caller.file}:${caller.line + 1 + random(20)}`,
      kind: edgeKinds[random(edgeKinds.length)],
      via: null,
      alternatives: [],
    });
  for (let i = 1; i < size; i++) call(nodes[random(i)], nodes[i]);
  for (let i = 0; i < extraCalls; i++) call(nodes[random(size)], nodes[random(size)]);
  return {
    component: 'generated',
    root: nodes[0].symbol,
    repo: { path: '/src/generated', commit, version: 'v1.24.0' },
    nodes,
    edges,
    unresolved: [],
  };
}

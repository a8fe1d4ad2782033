// Builds the native parser (binding.gyp -> build/Release/k8s_read_native.node) when it is missing
// or older than its sources. Runs at install and in `npm run build`; node-gyp compiles the
// tree-sitter runtime and the Go grammar from the sources their npm packages ship, and reads
// Node's headers from `nodedir` (or its cache), so nothing is downloaded when they are present.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { grammarPackages } from './grammar-packages.mjs';

const { treeSitter, treeSitterGo } = grammarPackages(process.cwd());

const output = 'build/Release/k8s_read_native.node';
const sources = [
  'binding.gyp',
  'src/native/capture-walk.c',
  path.join(treeSitter, 'vendor/tree-sitter/lib/src/lib.c'),
  path.join(treeSitterGo, 'src/parser.c'),
];
const built = existsSync(output) ? statSync(output).mtimeMs : 0;
const stale = sources.filter((s) => !existsSync(s) || statSync(s).mtimeMs > built);
if (built > 0 && stale.length === 0 && !process.argv.includes('--force')) process.exit(0);

// npm hands its own node-gyp to scripts; outside npm, look beside the running node.
const candidates = [
  process.env.npm_config_node_gyp,
  path.join(
    path.dirname(process.execPath),
    '..',
    'lib',
    'node_modules',
    'npm',
    'node_modules',
    'node-gyp',
    'bin',
    'node-gyp.js',
  ),
].filter(Boolean);
const nodeGyp = candidates.find((c) => existsSync(c));
const args = ['rebuild', '--loglevel=error'];
// Node's own headers when they sit beside it (a distribution's node), else npm's setting, else
// node-gyp's cache (which it fills from the network when empty).
const prefix = path.join(path.dirname(process.execPath), '..');
const nodedir =
  process.env.npm_config_nodedir ??
  (existsSync(path.join(prefix, 'include', 'node', 'node_api.h')) ? prefix : undefined);
if (nodedir) args.push(`--nodedir=${nodedir}`);
// gyp splits GYP_DEFINES as a shell would: each value quoted.
const quote = (value) => `'${value.replace(/'/g, `'\\''`)}'`;
const env = {
  ...process.env,
  GYP_DEFINES: [
    process.env.GYP_DEFINES,
    `tree_sitter_dir=${quote(treeSitter)}`,
    `tree_sitter_go_dir=${quote(treeSitterGo)}`,
  ]
    .filter(Boolean)
    .join(' '),
};
const stdio = ['ignore', 'ignore', 'inherit'];
const r = nodeGyp
  ? spawnSync(process.execPath, [nodeGyp, ...args], { stdio, env })
  : spawnSync('node-gyp', args, { stdio, env, shell: true });
if (r.status !== 0) {
  console.error(
    `build-native: node-gyp ${args.join(' ')} failed (exit ${r.status}); k8s-read index needs a C compiler, make and python3, as sqlite3 does`,
  );
  process.exit(r.status ?? 1);
}

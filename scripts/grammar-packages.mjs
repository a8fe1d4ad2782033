// Where npm put tree-sitter and tree-sitter-go for the k8s-read package at `packageRoot`: its own
// node_modules in a clone, hoisted above it when k8s-read is installed as a dependency of a
// project. binding.gyp takes both as variables (scripts/build-native.mjs passes them through
// GYP_DEFINES), relative to the package: gyp's make rules put a source's object file below the
// object directory by the source's path, which an absolute path does not fit.
import { createRequire } from 'node:module';
import path from 'node:path';

/** @param {string} packageRoot @returns {{ treeSitter: string, treeSitterGo: string }} */
export function grammarPackages(packageRoot) {
  const require = createRequire(path.join(packageRoot, 'package.json'));
  const dir = (name) =>
    path.relative(packageRoot, path.dirname(require.resolve(`${name}/package.json`))) || '.';
  return { treeSitter: dir('tree-sitter'), treeSitterGo: dir('tree-sitter-go') };
}

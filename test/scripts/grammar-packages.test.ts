/**
 * The native build finds tree-sitter and tree-sitter-go where npm put them: in a clone, in
 * k8s-read's own node_modules; installed as a project's dependency, hoisted beside k8s-read.
 * binding.gyp gets them relative to the package (gyp's make rules do not fit absolute sources).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types, run by npm at install
import { grammarPackages } from '../../scripts/grammar-packages.mjs';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-grammar-packages-');

function writePackage(dir: string, name: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '0.0.0' }));
}

/** k8s-read's package at `k8sRead`, and the two grammar packages under `modules`. */
function layout(k8sRead: string, modules: string): void {
  writePackage(k8sRead, 'k8s-read');
  for (const name of ['tree-sitter', 'tree-sitter-go'])
    writePackage(path.join(modules, name), name);
}

type Found = { treeSitter: string; treeSitterGo: string };

describe('the grammar packages for the native build', () => {
  it("are the package's own in a clone", () => {
    const clone = path.join(tmp, 'clone');
    layout(clone, path.join(clone, 'node_modules'));
    expect(grammarPackages(clone) as Found).toEqual({
      treeSitter: path.join('node_modules', 'tree-sitter'),
      treeSitterGo: path.join('node_modules', 'tree-sitter-go'),
    });
  });

  it("are the project's, hoisted beside k8s-read, when it is installed as a dependency", () => {
    const project = path.join(tmp, 'project');
    const installed = path.join(project, 'node_modules', 'k8s-read');
    layout(installed, path.join(project, 'node_modules'));
    expect(grammarPackages(installed) as Found).toEqual({
      treeSitter: path.join('..', 'tree-sitter'),
      treeSitterGo: path.join('..', 'tree-sitter-go'),
    });
  });
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { packageRoot } from '../shared/package-root.js';

export function readPackageVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** The bundled demo tree that every command falls back to. */
export const demoRepoRoot = path.join(packageRoot, 'fixtures', 'kubernetes');

/**
 * The digest of the built code (`dist/build-id`, written by scripts/postbuild.mjs), or undefined
 * when running from source, which has none: what a stored answer was computed by.
 */
export function readBuildId(): string | undefined {
  try {
    const id = readFileSync(
      path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'build-id'),
      'utf8',
    ).trim();
    return id || undefined;
  } catch {
    return undefined;
  }
}

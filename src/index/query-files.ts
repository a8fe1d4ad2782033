/**
 * The tree-sitter queries in queries/go/*.scm, read as text: the single source of which
 * constructs are captured. They are compiled together into one query, so a file is matched in a
 * single pass; capture names (not pattern indexes) tell the extractor what it found, so the files
 * can be reordered or extended freely.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../shared/package-root.js';

export const queriesDir = path.join(packageRoot, 'queries', 'go');

export function readQuerySources(dir = queriesDir): { file: string; source: string }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.scm'))
    .sort()
    .map((file) => ({ file, source: readFileSync(path.join(dir, file), 'utf8') }));
}

/** Every query file as one query source. */
export function joinedQuerySource(dir = queriesDir): string {
  return readQuerySources(dir)
    .map((s) => s.source)
    .join('\n');
}

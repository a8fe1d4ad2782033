/**
 * Loads every tree-sitter query in queries/go/*.scm. They are compiled together into one Query so
 * a file is matched in a single pass; capture names (not pattern indexes) tell the extractor what
 * it found, so the files can be reordered or extended freely.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Parser from 'tree-sitter';
import Go from 'tree-sitter-go';

export const queriesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'queries',
  'go',
);

export function readQuerySources(dir = queriesDir): { file: string; source: string }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.scm'))
    .sort()
    .map((file) => ({ file, source: readFileSync(path.join(dir, file), 'utf8') }));
}

export function goLanguage(): Parser.Language {
  return Go as unknown as Parser.Language;
}

export function compileQueries(dir = queriesDir): Parser.Query {
  const sources = readQuerySources(dir);
  return new Parser.Query(goLanguage(), sources.map((s) => s.source).join('\n'));
}

export function createGoParser(): Parser {
  const parser = new Parser();
  parser.setLanguage(goLanguage());
  return parser;
}

/**
 * The queries and the Go grammar through node-tree-sitter, for tests and tools that look at one
 * snippet. Indexing itself parses natively (native.ts) with the same query files and grammar.
 */
import Parser from 'tree-sitter';
import Go from 'tree-sitter-go';
import { joinedQuerySource, queriesDir } from './query-files.js';

export { queriesDir, readQuerySources } from './query-files.js';

export function goLanguage(): Parser.Language {
  return Go as unknown as Parser.Language;
}

export function compileQueries(dir = queriesDir): Parser.Query {
  return new Parser.Query(goLanguage(), joinedQuerySource(dir));
}

export function createGoParser(): Parser {
  const parser = new Parser();
  parser.setLanguage(goLanguage());
  return parser;
}

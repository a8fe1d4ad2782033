/**
 * Reads and parses one file into facts: the unit of work of the worker pool (and of in-process
 * indexing for small trees, where starting workers costs more than it saves).
 */
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import type Parser from 'tree-sitter';
import { gitBlobId } from '../shared/git-blob.js';
import { extractFacts } from './extract.js';
import type { FileFacts } from './facts.js';
import { compileQueries, createGoParser } from './queries.js';

export interface ParseTask {
  /** Absolute path on disk. */
  abs: string;
  /** Known git blob id, or undefined to hash the content like git does. */
  blob?: string;
}

export interface ParseResult {
  abs: string;
  blob: string;
  bytes: number;
  status: 'ok' | 'syntax' | 'encoding' | 'unreadable' | 'too-large';
  message?: string;
  /** deflate-raw compressed JSON of FileFacts (absent unless parsed). */
  facts?: Uint8Array;
  lines?: number;
}

export { gitBlobId };

let parser: Parser | undefined;
let query: Parser.Query | undefined;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The facts of Go source that is not on disk as a file of the tree (a file at another commit). */
export function factsOfSource(text: string): FileFacts {
  parser ??= createGoParser();
  query ??= compileQueries();
  return extractFacts(parser.parse(text), query, text);
}

export function parseFile(task: ParseTask, maxBytes: number): ParseResult {
  let content: Buffer;
  try {
    content = readFileSync(task.abs);
  } catch (error) {
    return {
      abs: task.abs,
      blob: task.blob ?? '',
      bytes: 0,
      status: 'unreadable',
      message: (error as Error).message,
    };
  }
  const blob = task.blob ?? gitBlobId(content);
  if (content.length > maxBytes) {
    return {
      abs: task.abs,
      blob,
      bytes: content.length,
      status: 'too-large',
      message: `${content.length} bytes > ${maxBytes}`,
    };
  }
  let text: string;
  let status: ParseResult['status'] = 'ok';
  let message: string | undefined;
  try {
    text = utf8.decode(content);
  } catch {
    // Go source must be UTF-8; parse what we can and say so.
    text = content.toString('utf8');
    status = 'encoding';
    message = 'not valid UTF-8';
  }
  parser ??= createGoParser();
  query ??= compileQueries();
  const tree = parser.parse(text);
  const facts = extractFacts(tree, query, text);
  if (facts.errors.length > 0 && status === 'ok') {
    status = 'syntax';
    message = `syntax errors near line ${facts.errors.slice(0, 5).join(', ')}`;
  }
  const json = JSON.stringify(facts);
  return {
    abs: task.abs,
    blob,
    bytes: content.length,
    status,
    ...(message ? { message } : {}),
    // An exact-size copy: posting a Buffer to the main thread clones its whole backing store,
    // which zlib can leave much larger than the compressed bytes.
    facts: new Uint8Array(deflateRawSync(json, { level: 1 })),
    lines: facts.lines,
  };
}

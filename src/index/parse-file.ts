/**
 * Reads and parses one file into facts: the unit of work of the worker pool (and of in-process
 * indexing for small trees, where starting workers costs more than it saves).
 */
import { readFileSync } from 'node:fs';
import { gitBlobId } from '../shared/git-blob.js';
import { extractFacts } from './extract.js';
import { encodeFacts } from './facts-codec.js';
import type { FileFacts } from './facts.js';
import { walkRules } from './light-node.js';
import { nativeParser, type NativeParse } from './native.js';

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
  /** FileFacts encoded by facts-codec.ts (absent unless parsed). */
  facts?: Uint8Array;
  lines?: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export { gitBlobId };

/** The facts of Go source that is not on disk as a file of the tree (a file at another commit). */
export function factsOfSource(text: string): FileFacts {
  return extractText(text);
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
  let bytes: Uint8Array = content;
  let status: ParseResult['status'] = 'ok';
  let message: string | undefined;
  try {
    text = utf8.decode(content);
  } catch {
    // Go source must be UTF-8; parse what we can and say so.
    text = content.toString('utf8');
    bytes = Buffer.from(text, 'utf8');
    status = 'encoding';
    message = 'not valid UTF-8';
  }
  const facts = extractText(text, bytes);
  if (facts.errors.length > 0 && status === 'ok') {
    status = 'syntax';
    message = `syntax errors near line ${facts.errors.slice(0, 5).join(', ')}`;
  }
  return {
    abs: task.abs,
    blob,
    bytes: content.length,
    status,
    ...(message ? { message } : {}),
    facts: encodeFacts(facts),
    lines: facts.lines,
  };
}

/** The facts of one Go source text (`bytes`: its UTF-8 encoding, when already at hand). */
export function extractText(
  text: string,
  bytes: Uint8Array = Buffer.from(text, 'utf8'),
): FileFacts {
  const native = nativeParser(walkRules);
  return extractFacts(parseGo(native.parse, bytes, text), native.names, text);
}

/**
 * Go 1.26 lets `new` take an expression (`new(f())`, `new(1024)`), which tree-sitter-go 0.25
 * (the newest grammar) does not parse. Such a file is parsed again with those `new` renamed to an
 * identifier of the same length, which parses as the call it is; offsets do not move and every
 * text is read from the real source, so the facts say `new`. Where errors are left, every `new(`
 * is renamed, for an operand that reads as a generic type but is an index (`new(e.Targets[0])`).
 * Only files with errors pay for it.
 */
function parseGo(
  parse: (source: Uint8Array) => NativeParse,
  bytes: Uint8Array,
  text: string,
): NativeParse {
  const parsed = parse(bytes);
  if (!parsed.hasError || !NEW_CALL.test(text)) return parsed;
  let best = parsed;
  // First the `new(` whose operand cannot be a type; then, if errors are left, also those whose
  // operand reads as a generic type but is an index (`new(endpoint.Targets[0])`).
  for (const pattern of [NEW_EXPR_ALL, NEW_CALL_ALL]) {
    const renamed = Buffer.from(bytes);
    let any = false;
    for (const m of text.matchAll(pattern)) {
      const at = Buffer.byteLength(text.slice(0, m.index));
      renamed[at + 2] = 0x57; // `neW(`
      any = true;
    }
    if (!any) continue;
    const again = parse(renamed);
    if (again.errors.length < best.errors.length) best = again;
    if (!best.hasError) break;
  }
  return best;
}

/**
 * `new(` whose operand is not a type: the types `new` took before Go 1.26 start with `*`, `[`,
 * `map`, `chan`, `func`, `struct`, `interface` or `<-`, or are a (qualified, instantiated) name
 * alone, which both grammars read alike.
 */
const NEW_EXPR_SOURCE =
  /(?<![\w.])new\((?!\s*(?:[*[]|<-|(?:map|chan|func|struct|interface)\b|[\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)?\s*[)[]))/u
    .source;
const NEW_EXPR_ALL = new RegExp(NEW_EXPR_SOURCE, 'gu');
/** Every call of `new`. */
const NEW_CALL = /(?<![\w.])new\(/u;
const NEW_CALL_ALL = new RegExp(NEW_CALL.source, 'gu');

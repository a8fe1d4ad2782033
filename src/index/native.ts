/**
 * The native half of parsing (src/native/capture-walk.c, built by node-gyp at install): tree-sitter
 * parses a file, finds the captures of queries/go/*.scm (in one pass over the tree when the
 * matcher knows every pattern, else on tree-sitter's query cursor) and walks the captured
 * subtrees in C, and hands back flat integer arrays that src/index/light-node.ts turns into
 * nodes. One native call a file, instead of one per node.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { K8sReadError } from '../errors.js';
import { loadNativeBinding, nativeBindingPath } from '../shared/native-binding.js';
import { joinedQuerySource } from './query-files.js';

/** What one parse hands back (offsets in UTF-16 code units, as JavaScript strings index). */
export interface NativeParse {
  /** 5 ints a walked node: type id, field id, start, end (-1 for a token), parent index or -1. */
  nodes: Int32Array;
  /** 5 ints a capture: capture id, node index (-1 when not walked), start, end, docs offset or -1. */
  captures: Int32Array;
  /**
   * At a capture's offset: own doc comments (count, then start/end pairs), the parent's type id,
   * the parent's named-child count, the parent's doc comments (count, pairs).
   */
  docs: Int32Array;
  /** Lines of the first syntax errors (at most 20). */
  errors: Int32Array;
  lines: number;
  hasError: boolean;
}

export interface NativeNames {
  captureNames: string[];
  typeNames: string[];
  typeNamed: boolean[];
  /** By field id; index 0 is null. */
  fieldNames: (string | null)[];
  /**
   * Whether every pattern of queries/go is one the native matcher knows (capture-walk.c): then
   * captures are found in one pass over the tree, else by tree-sitter's query cursor.
   */
  matcher: boolean;
}

/** How much of each captured subtree the walk reads: see light-node.ts for why. */
export interface WalkRules {
  leafTypes: readonly string[];
  bodyTypes: readonly string[];
  keptTokens: readonly string[];
  /** Captures whose doc comments extraction reads. */
  docCaptures: readonly string[];
  /** Captures read only by their text (no walk). */
  skipCaptures: readonly string[];
}

interface Binding {
  configure(config: WalkRules & { query: string; fieldedTypes: string[] }): NativeNames;
  /** `useQuery`: run tree-sitter's query cursor even when the matcher could (tests compare). */
  parse(source: Uint8Array, useQuery?: boolean): NativeParse;
  /** malloc_trim(0) where glibc has it: true when memory went back to the system. */
  trimMemory(): boolean;
}

export class NativeParserMissingError extends K8sReadError {
  constructor(file: string) {
    super(
      `the native parser (${file}) is not built; run \`npm run build:native\` in the k8s-read package (needs a C compiler, as sqlite3 does)`,
      { code: 'E_NATIVE_MISSING' },
    );
  }
}

let loaded: { binding: Binding; names: NativeNames } | undefined;

/** Loads and configures the binding once per thread. */
export function nativeParser(rules: WalkRules): {
  parse: (source: Uint8Array, useQuery?: boolean) => NativeParse;
  names: NativeNames;
} {
  if (!loaded) {
    const binding = loadNativeBinding<Binding>();
    if (!binding) throw new NativeParserMissingError(nativeBindingPath);
    const names = binding.configure({
      ...rules,
      query: joinedQuerySource(),
      fieldedTypes: fieldedTypes(),
    });
    loaded = { binding, names };
  }
  const { binding, names } = loaded;
  return { parse: (source, useQuery) => binding.parse(source, useQuery === true), names };
}

/**
 * Gives the system back what malloc holds free once the parser threads are gone (see
 * trim_memory in capture-walk.c). False when nothing was returned or the binding is not built.
 */
export function trimNativeMemory(): boolean {
  return loadNativeBinding<Binding>()?.trimMemory() ?? false;
}

/** Named node types that have fields, from the grammar's node-types.json. */
function fieldedTypes(): string[] {
  const require = createRequire(import.meta.url);
  const file = path.join(path.dirname(require.resolve('tree-sitter-go/package.json')), 'src');
  const types = JSON.parse(readFileSync(path.join(file, 'node-types.json'), 'utf8')) as {
    type: string;
    named: boolean;
    fields?: object;
  }[];
  return types
    .filter((t) => t.named && t.fields && Object.keys(t.fields).length > 0)
    .map((t) => t.type);
}

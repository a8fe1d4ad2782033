/**
 * The head of a Go file, read without parsing it: the package clause, its `// import "..."`
 * comment, the import paths, and whether a build constraint says `ignore`. Discovery needs these
 * before anything is parsed, to give trees without go.mod their import paths and to follow a
 * module's imports into its dependencies; tree-sitter would cost a full parse per file.
 */

export interface GoHeader {
  /** Package name, or null when the text has no package clause. */
  package: string | null;
  /** The path of a `// import "path"` (or `/* import "path" *\/`) comment on the package line. */
  importComment: string | null;
  imports: string[];
  /** A `//go:build` or `// +build` line above the package clause names the `ignore` tag. */
  ignored: boolean;
}

/** Import blocks sit at the top; a file whose first 64 KiB do not finish them is read whole. */
const HEAD_BYTES = 64 * 1024;

export function readGoHeader(content: Buffer): GoHeader {
  const head = scanGoHeader(content.toString('latin1', 0, Math.min(content.length, HEAD_BYTES)));
  if (head.complete || content.length <= HEAD_BYTES) return head.header;
  return scanGoHeader(content.toString('latin1')).header;
}

/** @returns the header, and whether the text went past the imports (or ended cleanly). */
export function scanGoHeader(text: string): { header: GoHeader; complete: boolean } {
  const header: GoHeader = { package: null, importComment: null, imports: [], ignored: false };
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  /** Skips blanks, newlines, semicolons and comments; build constraints are looked at on the way. */
  const skip = (beforePackage: boolean) => {
    while (i < n) {
      const c = text[i]!;
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === ';') i++;
      else if (c === '/' && text[i + 1] === '/') {
        const end = lineEnd(text, i);
        if (beforePackage && constraintSaysIgnore(text.slice(i, end))) header.ignored = true;
        i = end;
      } else if (c === '/' && text[i + 1] === '*') {
        const end = text.indexOf('*/', i + 2);
        i = end < 0 ? n : end + 2;
      } else return;
    }
  };
  const word = (): string => {
    const m = /^[\p{L}_][\p{L}\p{N}_]*/u.exec(text.slice(i, i + 256));
    if (!m) return '';
    i += m[0].length;
    return m[0];
  };
  /** A string literal at i: "..." with escapes, or a raw `...`; null if none. */
  const literal = (): string | null => {
    const quote = text[i];
    if (quote === '`') {
      const end = text.indexOf('`', i + 1);
      if (end < 0) return null;
      const value = text.slice(i + 1, end);
      i = end + 1;
      return value;
    }
    if (quote !== '"') return null;
    let value = '';
    for (let j = i + 1; j < n; j++) {
      const c = text[j]!;
      if (c === '\n') return null;
      if (c === '"') {
        i = j + 1;
        return value;
      }
      if (c === '\\') {
        value += text[j + 1] ?? '';
        j++;
      } else value += c;
    }
    return null;
  };
  /** One import spec: an optional name (`alias`, `.`, `_`), then the path. */
  const spec = (): boolean => {
    if (text[i] === '.') i++;
    else word();
    while (text[i] === ' ' || text[i] === '\t') i++;
    const p = literal();
    if (p === null) return false;
    header.imports.push(p);
    return true;
  };

  skip(true);
  if (word() !== 'package') return { header, complete: true };
  while (text[i] === ' ' || text[i] === '\t') i++;
  header.package = word() || null;
  const rest = text.slice(i, lineEnd(text, i));
  header.importComment = /^\s*(?:\/\/|\/\*)\s*import\s+"([^"\s]+)"/.exec(rest)?.[1] ?? null;
  for (;;) {
    skip(false);
    if (i >= n) return { header, complete: false };
    const start = i;
    if (word() !== 'import') {
      i = start;
      return { header, complete: true };
    }
    skip(false);
    if (text[i] === '(') {
      i++;
      for (;;) {
        skip(false);
        if (i >= n) return { header, complete: false };
        if (text[i] === ')') {
          i++;
          break;
        }
        if (!spec()) return { header, complete: i >= n };
      }
    } else if (!spec()) return { header, complete: i >= n };
  }
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end < 0 ? text.length : end;
}

/** `//go:build ignore`, `// +build ignore`: the tag `ignore`, not negated, anywhere in the line. */
function constraintSaysIgnore(comment: string): boolean {
  const m = /^\/\/(?:go:build\s|\s*\+build\s)(.*)$/.exec(comment);
  return m !== null && /(?:^|[\s(&|,])ignore(?:$|[\s)&|,])/.test(m[1]!);
}

/**
 * The bridge between the twins and the Go code: every twin declaration names the Go symbol it
 * reimplements in a `@mirrors` JSDoc tag. This module reads the tags from the TypeScript sources
 * with ts-morph (the sources, not the build: the tags and the code a reader sees must be the
 * ones in the repository), checks them against an index of the Go tree, and finds the twin of a
 * Go symbol for `twin show` and the TUI.
 */
import path from 'node:path';
import { Node, Project, type JSDoc } from 'ts-morph';

export interface MirrorTag {
  /** The twin the file belongs to: its folder or file name under src/twins (`scheduler`, `workqueue`). */
  twin: string;
  /** `WorkQueue`, `WorkQueue.add`, `selectHost`. */
  exportName: string;
  /** The Go symbol, in DESIGN's symbol format. */
  symbol: string;
  /** Relative to the twins directory's parent's parent (the package root): `src/twins/workqueue.ts`. */
  file: string;
  /** 1-based line of the declaration (after its JSDoc). */
  line: number;
  /** Last line of the declaration. */
  endLine: number;
  /** The declaration's source, JSDoc included. */
  text: string;
}

/**
 * Every `@mirrors` tag under a twins source directory, in file and line order.
 * @param twinsSourceDir the `src/twins` directory of the package (TypeScript sources)
 */
export async function readMirrorTags(twinsSourceDir: string): Promise<MirrorTag[]> {
  const project = new Project({
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    compilerOptions: { allowJs: false, noEmit: true },
  });
  project.addSourceFilesAtPaths([
    path.join(twinsSourceDir, '**/*.ts').split(path.sep).join('/'),
    '!**/*.d.ts',
  ]);
  const packageRoot = path.resolve(twinsSourceDir, '..', '..');
  const tags: MirrorTag[] = [];
  for (const sourceFile of project.getSourceFiles()) {
    const absolute = sourceFile.getFilePath();
    const relativeToTwins = path.relative(twinsSourceDir, absolute);
    const twin = relativeToTwins.split(path.sep)[0]!.replace(/\.ts$/, '');
    const file = path.relative(packageRoot, absolute).split(path.sep).join('/');
    const collect = (node: Node, exportName: string, docs: JSDoc[]) => {
      for (const symbol of mirrorSymbols(docs)) {
        tags.push({
          twin,
          exportName,
          symbol,
          file,
          line: node.getStartLineNumber(false),
          endLine: node.getEndLineNumber(),
          text: declarationText(node),
        });
      }
    };
    for (const statement of sourceFile.getStatements()) {
      if (Node.isClassDeclaration(statement) || Node.isInterfaceDeclaration(statement)) {
        const name = statement.getName() ?? 'default';
        collect(statement, name, statement.getJsDocs());
        for (const member of statement.getMembers()) {
          if (!Node.isJSDocable(member)) continue;
          const memberName = Node.hasName(member)
            ? member.getName()
            : Node.isConstructorDeclaration(member)
              ? 'constructor'
              : '?';
          collect(member, `${name}.${memberName}`, member.getJsDocs());
        }
      } else if (
        Node.isFunctionDeclaration(statement) ||
        Node.isTypeAliasDeclaration(statement) ||
        Node.isEnumDeclaration(statement)
      ) {
        collect(statement, statement.getName() ?? 'default', statement.getJsDocs());
      } else if (Node.isVariableStatement(statement)) {
        const name = statement
          .getDeclarations()
          .map((d) => d.getName())
          .join(', ');
        collect(statement, name, statement.getJsDocs());
      }
    }
  }
  return tags.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}

/** The declaration with its JSDoc, dedented so that a method reads as it would at top level. */
function declarationText(node: Node): string {
  const sourceFile = node.getSourceFile();
  const start = node.getStart(true);
  const column = start - sourceFile.getFullText().lastIndexOf('\n', start - 1) - 1;
  const lines = (' '.repeat(column) + node.getText(true)).split('\n');
  const indent = Math.min(
    ...lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length),
  );
  return lines.map((l) => l.slice(indent)).join('\n');
}

function mirrorSymbols(docs: readonly JSDoc[]): string[] {
  const symbols: string[] = [];
  for (const doc of docs) {
    for (const tag of doc.getTags()) {
      if (tag.getTagName() !== 'mirrors') continue;
      const text = firstSymbol(tag.getCommentText() ?? '');
      if (text) symbols.push(text);
    }
  }
  return symbols;
}

/**
 * The symbol at the start of a tag's text: up to the first space outside brackets, so that a
 * generic receiver such as `Kind[object, request]` stays whole.
 */
function firstSymbol(text: string): string {
  const trimmed = text.trim();
  let depth = 0;
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed[i]!;
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (/\s/.test(c) && depth === 0) return trimmed.slice(0, i);
  }
  return trimmed;
}

export interface MirrorCheck {
  /** How many tags were checked. */
  mirrors: number;
  /** Tags whose symbol the index lacks, on declarations none of whose other tags it has either. */
  missing: { twin: string; symbol: string }[];
}

/**
 * Checks tags against an index. A declaration may carry several tags (the Go name changed
 * across versions); it is fine when any of them exists, so only declarations with no existing
 * symbol report their tags as missing.
 * @param exists answers which of the given symbols the index has
 */
export async function checkMirrors(
  tags: readonly MirrorTag[],
  exists: (symbols: string[]) => Promise<Set<string>>,
): Promise<MirrorCheck> {
  const symbols = [...new Set(tags.map((t) => t.symbol))];
  const found = symbols.length === 0 ? new Set<string>() : await exists(symbols);
  const declarations = new Map<string, MirrorTag[]>();
  for (const tag of tags) {
    const key = `${tag.file}:${tag.line}:${tag.exportName}`;
    const list = declarations.get(key);
    if (list) list.push(tag);
    else declarations.set(key, [tag]);
  }
  const missing: { twin: string; symbol: string }[] = [];
  const seen = new Set<string>();
  for (const group of declarations.values()) {
    if (group.some((t) => found.has(t.symbol))) continue;
    for (const tag of group) {
      const id = `${tag.twin}\u0000${tag.symbol}`;
      if (seen.has(id)) continue;
      seen.add(id);
      missing.push({ twin: tag.twin, symbol: tag.symbol });
    }
  }
  return { mirrors: tags.length, missing };
}

export interface TwinMatch {
  twin: string;
  exportName: string;
  /** The tag that matched. */
  symbol: string;
  file: string;
  line: number;
  text: string;
}

/**
 * The twin declarations of a Go symbol. An exact symbol wins; otherwise a suffix on a name
 * boundary matches (`Type.Add`, `workqueue.Type.Add`, `scheduleOne`), ignoring the `(*...)` of
 * method receivers.
 */
export function findTwinsForSymbol(tags: readonly MirrorTag[], goSymbol: string): TwinMatch[] {
  const exact = tags.filter((t) => t.symbol === goSymbol);
  const chosen = exact.length > 0 ? exact : tags.filter((t) => looseMatch(t.symbol, goSymbol));
  const byDeclaration = new Map<string, TwinMatch>();
  for (const tag of chosen) {
    const key = `${tag.file}:${tag.line}`;
    if (!byDeclaration.has(key)) {
      byDeclaration.set(key, {
        twin: tag.twin,
        exportName: tag.exportName,
        symbol: tag.symbol,
        file: tag.file,
        line: tag.line,
        text: tag.text,
      });
    }
  }
  return [...byDeclaration.values()];
}

function normalize(symbol: string): string {
  return symbol.replace(/^\(\*?/, '').replace(/\)\./, '.');
}

function looseMatch(symbol: string, query: string): boolean {
  const s = normalize(symbol);
  const q = normalize(query.trim());
  if (q === '') return false;
  if (s === q) return true;
  if (!s.endsWith(q)) return false;
  const boundary = s[s.length - q.length - 1];
  return boundary === '.' || boundary === '/';
}

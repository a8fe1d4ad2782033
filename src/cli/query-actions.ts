/** Actions of `def`, `search` and `stats`, loaded only when one of them runs. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SymbolNotFoundError, UsageError } from '../errors.js';
import {
  countSymbols,
  findDefinitions,
  searchSymbols,
  type DefinitionRow,
} from '../store/symbols.js';
import { permalinkBase } from '../trace/store-graph.js';
import { resolvePosition } from '../trace/queries.js';
import type { DependencyReport } from '../index/dependencies.js';
import type { ImportPathSource } from '../index/modules.js';
import type { CliContext } from './context.js';
import { choiceFlags, readChoices, type IndexChoices } from './index-choices.js';
import { openIndex, type OpenIndex } from './open-index.js';
import { writeJson } from './output.js';
import type { RepoOptions } from './repo.js';
import { describeSources } from './tree-sources.js';

const POSITION = /^(.+\.go):(\d+)(?::(\d+))?$/;

function url(index: OpenIndex, d: { file: string; line: number }): string | null {
  const base = permalinkBase(index.tree);
  return base && d.file ? `${base}/${d.file}#L${d.line}` : null;
}

function withUrl(index: OpenIndex, d: DefinitionRow) {
  return {
    symbol: d.symbol,
    kind: d.kind,
    file: d.file,
    line: d.line,
    endLine: d.endLine,
    package: d.package,
    signature: d.detail,
    doc: d.doc,
    url: url(index, d),
  };
}

export async function runDef(
  ctx: CliContext,
  options: RepoOptions,
  query: string,
  output: 'text' | 'json',
): Promise<void> {
  const index = await openIndex(ctx, options);
  try {
    const pos = POSITION.exec(query);
    if (pos) {
      let file = pos[1]!;
      if (path.isAbsolute(file)) file = path.relative(index.tree.root, file);
      else if (
        !existsSync(path.join(index.tree.root, file)) &&
        existsSync(path.resolve(ctx.cwd, file))
      ) {
        file = path.relative(index.tree.root, path.resolve(ctx.cwd, file));
      }
      if (file.startsWith('..'))
        throw new UsageError(`${pos[1]} is outside the repository ${index.tree.root}`);
      const answer = await resolvePosition(
        index,
        file.split(path.sep).join('/'),
        Number(pos[2]),
        pos[3] ? Number(pos[3]) - 1 : null,
      );
      if (!answer.enclosing)
        throw new UsageError(
          `nothing indexed at ${file}:${pos[2]} (is the file a .go file in the index?)`,
        );
      if (output === 'json') {
        writeJson(ctx.stdout, {
          ...answer,
          enclosing: withUrl(index, answer.enclosing),
          declared: answer.declared ? withUrl(index, answer.declared) : null,
          calls: answer.calls.map((c) => ({
            ...c,
            target: c.target ? withUrl(index, c.target) : null,
          })),
        });
        return;
      }
      const lines = [`${file}:${pos[2]} is in ${answer.enclosing.symbol}`];
      if (answer.declared) lines.push(`  declares ${answer.declared.symbol}`);
      for (const c of answer.calls) {
        const how =
          c.kind === 'static'
            ? ''
            : `  [${c.kind === 'framework' ? `framework: ${c.via}` : c.kind}${c.rank ? `, alternative ${c.rank}` : ''}]`;
        lines.push(
          c.target
            ? `  col ${c.col + 1}: → ${c.target.symbol}${c.target.file ? `  ${c.target.file}:${c.target.line}` : ''}${how}`
            : `  col ${c.col + 1}: ? ${c.expr ?? ''} (unresolved)`,
        );
      }
      if (answer.calls.length === 0 && !answer.declared) lines.push('  (no calls on this line)');
      ctx.stdout.write(`${lines.join('\n')}\n`);
      return;
    }
    const rows = (await findDefinitions(index.store, index.treeId, query)).filter(
      (r) => r.kind !== 'external',
    );
    if (rows.length === 0) {
      const suggestions = (
        await searchSymbols(index.store, index.treeId, query.replace(/^.*[./)]/, ''), 5)
      ).map((r) => r.symbol);
      throw new SymbolNotFoundError(query, suggestions);
    }
    if (output === 'json') {
      writeJson(
        ctx.stdout,
        rows.map((r) => withUrl(index, r)),
      );
      return;
    }
    for (const r of rows) {
      ctx.stdout.write(`${r.symbol}  ${r.file}:${r.line}  (${r.kind})\n`);
      if (r.detail) ctx.stdout.write(`  ${r.detail}\n`);
      const link = url(index, r);
      if (link) ctx.stdout.write(`  ${link}\n`);
      if (r.doc) ctx.stdout.write(`  // ${r.doc.split('\n')[0]}\n`);
    }
  } finally {
    await index.close();
  }
}

export async function runSearch(
  ctx: CliContext,
  options: RepoOptions,
  text: string,
  limit: number,
  output: 'text' | 'json',
): Promise<void> {
  const index = await openIndex(ctx, options);
  try {
    const rows = await searchSymbols(index.store, index.treeId, text, limit);
    if (output === 'json')
      writeJson(
        ctx.stdout,
        rows.map((r) => withUrl(index, r)),
      );
    else if (rows.length === 0) ctx.stdout.write(`no symbol contains ${JSON.stringify(text)}\n`);
    else
      for (const r of rows)
        ctx.stdout.write(`${r.kind.padEnd(9)} ${r.symbol}  ${r.file}:${r.line}\n`);
  } finally {
    await index.close();
  }
}

export async function runStats(
  ctx: CliContext,
  options: RepoOptions,
  output: 'text' | 'json',
): Promise<void> {
  const index = await openIndex(ctx, options);
  try {
    const {
      fingerprint: _,
      linker: _l,
      importPaths,
      dependencies,
      choices,
      ...summary
    } = JSON.parse(index.tree.summary) as Record<string, number> & {
      fingerprint?: string;
      linker?: string;
      choices?: unknown;
      importPaths?: Partial<Record<ImportPathSource, number>>;
      dependencies?: DependencyReport;
    };
    const symbols = await countSymbols(index.store, index.treeId);
    const result = {
      repo: index.tree.root,
      commit: index.tree.commit_sha,
      version: index.tree.version,
      module: index.tree.module,
      dirty: Boolean(index.tree.dirty),
      indexedAt: index.tree.indexed_at,
      db: index.choice.dbPath,
      counts: summary,
      importPaths: importPaths ?? null,
      dependencies: dependencies ?? null,
      /** How it was indexed, as the next `index` will do again (null: from before that was kept). */
      choices: readChoices(choices) ?? null,
      symbols,
    };
    if (output === 'json') {
      writeJson(ctx.stdout, result);
      return;
    }
    const c = summary;
    ctx.stdout.write(
      [
        `${result.repo}${result.commit ? ` @ ${result.commit.slice(0, 12)}` : ''}${result.version ? ` (${result.version})` : ''}${result.dirty ? ', with local edits' : ''}`,
        `  indexed ${result.indexedAt} into ${result.db}${indexedWith(result.choices, result.repo)}`,
        `  ${c.files} files, ${c.packages} packages, ${c.functions} functions, ${c.methods} methods, ${c.types} types, ${c.literals} closures`,
        `  ${c.calls} calls: ${c.resolved} resolved, ${c.external} into unindexed packages, ${c.unresolved} unresolved, ${c.builtin} builtins/conversions`,
        `  ${c.edges} edges (${c.frameworkEdges} from framework rules)`,
        ...(Number(c.syntaxErrors) > 0
          ? [
              `  ${c.syntaxErrors} file${c.syntaxErrors === 1 ? '' : 's'} with syntax errors (facts outside the errors kept; \`index -v\` lists them)`,
            ]
          : []),
      ].join('\n') + '\n',
    );
    const sources = describeSources(
      {
        ...(importPaths ? { importPaths } : {}),
        ...(dependencies ? { dependencies } : {}),
      },
      { verbose: false, allPaths: true, listHint: '`stats -o json` lists them' },
    );
    for (const line of [...sources.found, ...sources.problems])
      ctx.stdout.write(`  ${line.replace(/^warning: /, '')}\n`);
  } finally {
    await index.close();
  }
}

/** ` with --include-tests --with /src/client-go`: what `index` will do again, when not the defaults. */
function indexedWith(choices: Partial<IndexChoices> | null, root: string): string {
  const flags = choices ? choiceFlags(choices, root) : [];
  return flags.length > 0 ? ` with ${flags.map((f) => f.flag).join(' ')}` : '';
}

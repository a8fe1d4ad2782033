/**
 * Human output for blame, history and pr: `git blame`'s layout with a PR column, then one legend
 * line per pull request (title, link) and per reason a PR could not be named. Colour comes in as
 * a picocolors instance, so the caller decides (TTY, NO_COLOR) and tests read plain text.
 */
import type picocolors from 'picocolors';
import { printablePath } from '../shared/text.js';
import { short } from './pull-requests.js';
import type { BlamedLine, HistoryEntry, PullRequestAnswer, PullRequestDetails } from './types.js';

export type Colors = ReturnType<typeof picocolors.createColors>;

/** `a1b2c3d4 (Ada Reader 2022-01-03 #1234) 96 | code`, aligned like git blame, then the legend. */
export function renderBlameText(lines: readonly BlamedLine[], c: Colors, heading?: string): string {
  if (lines.length === 0) return heading ? `${heading}\n(empty)\n` : '(empty file)\n';
  const authorWidth = Math.max(...lines.map((l) => (l.author ?? 'Not Committed Yet').length));
  const prWidth = Math.max(...lines.map((l) => prLabel(l).length));
  const lineWidth = String(Math.max(...lines.map((l) => l.line))).length;
  const out: string[] = [];
  if (heading) out.push(c.bold(heading));
  for (const l of lines) {
    const sha = l.commit ? short(l.commit) : '00000000';
    const author = (l.author ?? 'Not Committed Yet').padEnd(authorWidth);
    const date = (l.authorTime ?? '').slice(0, 10).padEnd(10);
    const pr = prLabel(l).padEnd(prWidth);
    out.push(
      `${c.yellow(sha)} (${author} ${c.dim(date)} ${c.cyan(pr)}) ${String(l.line).padStart(lineWidth)} | ${l.content}`,
    );
  }
  out.push('', ...renderLegend(lines, c));
  return `${out.join('\n')}\n`;
}

function prLabel(answer: PullRequestAnswer): string {
  return answer.pr ? `#${answer.pr.number}` : '-';
}

/** One line per pull request and per reason without one, in order of first appearance. */
function renderLegend(
  answers: ReadonlyArray<PullRequestAnswer & { commit: string | null }>,
  c: Colors,
): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const withoutPr = new Map<string, number>();
  for (const a of answers) {
    if (!a.pr) {
      withoutPr.set(a.reason, (withoutPr.get(a.reason) ?? 0) + 1);
      continue;
    }
    if (seen.has(String(a.pr.number))) continue;
    seen.add(String(a.pr.number));
    const parts = [c.cyan(`#${a.pr.number}`), a.pr.title ?? '(no title)'];
    if (a.pr.url) parts.push(c.dim(a.pr.url));
    out.push(parts.join('  '));
    out.push(`    ${c.dim(a.reason)}`);
    for (const pick of a.cherryPickOf ?? [])
      out.push(`    cherry pick of #${pick.number}${pick.url ? `  ${c.dim(pick.url)}` : ''}`);
  }
  for (const [reason, count] of withoutPr) {
    out.push(
      `${c.cyan('-')}  ${reason}${answers.length > 1 ? ` (${count} line${count === 1 ? '' : 's'})` : ''}`,
    );
  }
  const upstreams = new Set(answers.flatMap((a) => (a.upstream ? [a.upstream.url] : [])));
  if (upstreams.size === 1) out.push(`upstream  ${c.dim([...upstreams][0] as string)}`);
  return out;
}

/** Newest first: `a1b2c3d4 2022-01-03 Ada Reader  #1234 PR title`, the commit summary below. */
export function renderHistoryText(
  entries: readonly HistoryEntry[],
  more: boolean,
  c: Colors,
): string {
  if (entries.length === 0) return '(no commits)\n';
  const authorWidth = Math.max(...entries.map((e) => e.author.length));
  const out: string[] = [];
  for (const e of entries) {
    const pr = e.pr ? `${c.cyan(`#${e.pr.number}`)} ${e.pr.title ?? ''}` : c.dim(`- ${e.reason}`);
    out.push(
      `${c.yellow(short(e.commit))} ${c.dim(e.authorTime.slice(0, 10))} ${e.author.padEnd(authorWidth)}  ${pr}`,
    );
    out.push(`         ${e.summary}`);
    if (e.pr?.url) out.push(`         ${c.dim(e.pr.url)}`);
  }
  if (more) out.push('', c.dim(`(more commits: raise --limit, or --limit 0 for all)`));
  return `${out.join('\n')}\n`;
}

export function renderPullRequestText(
  details: PullRequestDetails,
  touched: {
    /** The commit the symbols' lines refer to. */
    at: string;
    symbols: ReadonlyArray<{ symbol: string; file: string; line: number }>;
  },
  c: Colors,
): string {
  const out: string[] = [];
  out.push(`${c.bold(c.cyan(`#${details.number}`))} ${c.bold(details.title ?? '(no title)')}`);
  if (details.url) out.push(c.dim(details.url));
  out.push(
    `${details.kind === 'merge' ? 'merge commit' : 'squash commit'} ${c.yellow(details.mergeCommit)}  ${details.author}  ${details.authorTime.slice(0, 10)}`,
  );
  if (details.upstream) out.push(`upstream ${details.upstream.url}`);
  for (const pick of details.cherryPickOf ?? [])
    out.push(`cherry pick of #${pick.number}${pick.url ? `  ${c.dim(pick.url)}` : ''}`);
  if (details.description && details.description !== details.title)
    out.push('', details.description);
  out.push('', c.bold(`Files (${details.files.length}):`));
  for (const f of details.files)
    out.push(
      `  ${f.status} ${f.oldPath ? `${printablePath(f.oldPath)} -> ` : ''}${printablePath(f.path)}`,
    );
  out.push(
    '',
    c.bold(`Symbols touched (${touched.symbols.length}), lines as of ${short(touched.at)}:`),
  );
  for (const s of touched.symbols)
    out.push(`  ${s.symbol}  ${c.dim(`${printablePath(s.file)}:${s.line}`)}`);
  return `${out.join('\n')}\n`;
}

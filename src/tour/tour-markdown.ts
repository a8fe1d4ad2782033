/**
 * `export tour <name> -o md`: the tour as a Markdown page to publish — a design doc, a wiki page,
 * onboarding notes. Every step links to its code at the indexed commit; the prose says what
 * Kubernetes does, a quote block says what the twin simplifies, and the sources are linked at the
 * version they were read at. A step this tree lacks is said to be missing, never filled in.
 */
import { focusText } from './tour-text.js';
import type { Citation } from './schema.js';
import type { Excerpt, StepView, TourView } from './tour-view.js';

export function renderTourMarkdown(view: TourView): string {
  const { tour, tree } = view;
  const out: string[] = [`# ${tour.title}`, '', tour.summary.trim(), ''];
  const short = tree.commit ? `\`${tree.commit.slice(0, 12)}\`` : null;
  const commit =
    short && tree.permalinkBase
      ? `[${short}](${tree.permalinkBase.replace('/blob/', '/tree/')})`
      : short;
  const where = `${tree.label}${commit ? ` at ${commit}` : ''}${tree.version ? ` (${tree.version})` : ''}`;
  out.push(
    `*Read on ${where}, ${tour.steps.length} steps. Take it interactively with \`k8s-read tour ${tour.name}\`.*`,
    '',
  );
  out.push('## Steps', '');
  for (const s of view.steps)
    out.push(`${s.number}. [${escapeText(s.step.title)}](#${anchorId(s)})`);
  out.push('');
  for (const step of view.steps) out.push(...stepSection(step));
  return `${out.join('\n').trimEnd()}\n`;
}

function stepSection(view: StepView): string[] {
  const { step, anchor } = view;
  const out = [
    `<a id="${anchorId(view)}"></a>`,
    `## ${view.number}. ${escapeText(step.title)}`,
    '',
  ];
  if (anchor.status === 'resolved') {
    const location = `${anchor.file}:${anchor.focusLine ?? anchor.line}`;
    const symbol = view.url ? `[${code(anchor.symbol)}](${view.url})` : code(anchor.symbol);
    const via = anchor.viaAlternative ? ` (this version's name for ${code(step.symbol)})` : '';
    out.push(`${symbol}${via} — ${code(location)}`, '');
    if (view.excerpt) out.push(...fence(view.excerpt));
    if (anchor.focusLine !== null && step.focus)
      out.push(`Focus: line ${anchor.focusLine}, ${focusText(step.focus)}.`, '');
    if (anchor.focusMissing)
      out.push(
        `> **Note:** the focus (${focusText(step.focus)}) is not in this version of the symbol.`,
        '',
      );
  } else if (anchor.status === 'missing') {
    const similar =
      anchor.suggestions.length > 0
        ? ` Similar symbols here: ${anchor.suggestions.map(code).join(', ')}.`
        : '';
    out.push(
      `> **Not in this tree:** ${[step.symbol, ...step.alternatives].map(code).join(' or ')}.${similar}`,
      '',
    );
  } else {
    out.push(`${code(step.symbol)} — ${anchor.reason}.`, '');
  }
  out.push(step.prose.trim(), '');
  if (step.twin) {
    const run = step.twin.name ? ` (\`k8s-read twin run ${step.twin.name}\`)` : '';
    out.push(`> **What the twin simplifies${run}:** ${quote(step.twin.simplifies.trim())}`, '');
  }
  if (step.cite.length > 0) out.push(`Sources: ${step.cite.map(citation).join(' · ')}`, '');
  return out;
}

/** The excerpt as a Go code block; gaps become a `// …` line so the block stays valid Go-looking text. */
function fence(excerpt: Excerpt): string[] {
  const body: string[] = [];
  let previous: number | undefined;
  for (const { n, text } of excerpt.lines) {
    if (previous !== undefined && n > previous + 1) body.push('\t// …');
    body.push(text);
    previous = n;
  }
  const longest = Math.max(2, ...body.map((l) => /`+/.exec(l)?.[0].length ?? 0));
  const ticks = '`'.repeat(longest + 1);
  return [`${ticks}go`, ...body, ticks, ''];
}

function citation(c: Citation): string {
  return `[${c.repo} ${c.version}: ${c.path}](https://github.com/${c.repo}/blob/${c.version}/${c.path})`;
}

/** A stable in-page id: GitHub's own heading ids vary with punctuation, so each step gets one. */
function anchorId(view: StepView): string {
  const slug = view.step.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `step-${view.number}${slug ? `-${slug}` : ''}`;
}

function code(text: string): string {
  const fenceLength = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1;
  const ticks = '`'.repeat(fenceLength);
  return fenceLength > 1 ? `${ticks} ${text} ${ticks}` : `${ticks}${text}${ticks}`;
}

/** Titles are Markdown already; only brackets would break the links of the step list. */
function escapeText(text: string): string {
  return text.replace(/([[\]])/g, '\\$1');
}

/** Continues a block quote over the paragraphs of a Markdown text. */
function quote(text: string): string {
  return text.replace(/\n/g, '\n> ');
}

/**
 * The real Mermaid parser, headless in Node 20. mermaid 11 parses without a browser once
 * DOMPurify (which it uses to sanitise labels) sees a `window`; happy-dom provides one. mermaid 12
 * and @mermaid-js/parser 2 need Node 22, and @mermaid-js/parser (1.x) has grammars for pie, git graphs and such, not for flowcharts
 * or sequence diagrams.
 * See docs/mermaid-validation.md.
 */
import type { Mermaid } from 'mermaid';
import { afterAll } from 'vitest';

let loaded: Promise<Mermaid> | undefined;

async function loadMermaid(): Promise<Mermaid> {
  const { Window } = await import('happy-dom');
  const window = new Window();
  Object.assign(globalThis, { window, document: window.document });
  afterAll(() => window.happyDOM.close());
  return (await import('mermaid')).default;
}

/** Parses a diagram and returns its type (`flowchart-v2`, `sequence`); throws Mermaid's own
 * error, with the line and what it expected, on a syntax error. */
export async function parseMermaid(text: string): Promise<string> {
  loaded ??= loadMermaid();
  const result = await (await loaded).parse(text);
  if (!result) throw new Error('mermaid did not recognise the diagram');
  return result.diagramType;
}

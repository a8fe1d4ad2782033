/**
 * Every output format, keyed by its `-o` name. The CLI offers `Object.keys(renderers)` as the
 * choices, so a renderer added here is a format users can pick, with no second list to forget.
 */
import type { Trace } from '../trace/types.js';
import { renderDot } from './dot.js';
import { renderMarkdown } from './markdown.js';
import { renderMermaid } from './mermaid.js';
import { renderSvg } from './svg.js';
import { renderTree } from './tree.js';
import type { Renderer } from './types.js';

/** The trace contract of DESIGN.md, exactly; never folded, so scripts see every hop. */
export function renderJson(trace: Trace): string {
  return `${JSON.stringify(trace, null, 2)}\n`;
}

export const renderers = {
  tree: renderTree,
  json: renderJson,
  mermaid: renderMermaid,
  dot: renderDot,
  svg: renderSvg,
  md: renderMarkdown,
} satisfies Record<string, Renderer>;

export type RenderFormat = keyof typeof renderers;

export const renderFormats = Object.keys(renderers) as RenderFormat[];

/**
 * SVG laid out in-process by Graphviz compiled to WebAssembly, so no system package is needed.
 * The module (about 1 MB of JavaScript with the wasm inlined) loads on first use only, which keeps
 * `k8s-read trace` and `--help` fast; the instance is kept for later calls.
 */
import type { Graphviz } from '@hpcc-js/wasm-graphviz';
import type { Trace } from '../trace/types.js';
import { renderDot } from './dot.js';
import type { RenderOptions } from './types.js';

let graphviz: Promise<Graphviz> | undefined;

export function loadGraphviz(): Promise<Graphviz> {
  graphviz ??= import('@hpcc-js/wasm-graphviz').then(({ Graphviz }) => Graphviz.load());
  return graphviz;
}

export async function renderSvg(trace: Trace, options: RenderOptions): Promise<string> {
  return layoutDot(renderDot(trace, options));
}

/** Lays DOT out with the `dot` engine; throws Graphviz's own message on a syntax error. */
export async function layoutDot(dot: string): Promise<string> {
  try {
    return (await loadGraphviz()).dot(dot);
  } catch (error) {
    // Graphviz unloads its module after a failed layout; the next call must load a fresh one.
    graphviz = undefined;
    throw error;
  }
}

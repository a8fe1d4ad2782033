import { describe, expect, it } from 'vitest';
import { renderSvg } from '../../src/export/svg.js';
import { defaultRenderOptions } from '../../src/export/types.js';
import { generatedTrace, schedulerTrace } from './sample-traces.js';
import { findAll, parseXml } from './xml.js';

const options = defaultRenderOptions;

describe('renderSvg', () => {
  it('is well-formed XML with an svg root', async () => {
    const root = parseXml(await renderSvg(schedulerTrace(), options));
    expect(root.name).toBe('svg');
  });

  it('keeps one link per node that has a permalink, opening in a new tab', async () => {
    const trace = schedulerTrace();
    const root = parseXml(await renderSvg(trace, options));
    const nodes = findAll(root, 'g').filter((g) => g.attributes.get('class') === 'node');
    // Graphviz wraps every node in <a xlink:title> for its tooltip; a link is an <a> with an href.
    const links = nodes
      .flatMap((node) => findAll(node, 'a'))
      .filter((a) => a.attributes.has('xlink:href'));
    expect(
      nodes.filter((node) => findAll(node, 'a').some((a) => a.attributes.has('xlink:href'))),
    ).toHaveLength(links.length);
    const expected = trace.nodes
      .filter((node) => node.url)
      .map((node) => node.url!.replaceAll('&', '&amp;'));
    expect(links.map((a) => a.attributes.get('xlink:href')).sort()).toEqual(expected.sort());
    expect(links.every((a) => a.attributes.get('target') === '_blank')).toBe(true);
  });

  it('leaves a node without a permalink unlinked', async () => {
    const root = parseXml(await renderSvg(schedulerTrace(), options));
    const runOrDie = findAll(root, 'g').find(
      (g) =>
        g.attributes.get('class') === 'node' &&
        findAll(g, 'text').some((t) => t.text === 'RunOrDie'),
    );
    expect(runOrDie).toBeDefined();
    expect(findAll(runOrDie!, 'a').filter((a) => a.attributes.has('xlink:href'))).toEqual([]);
  });

  it('lays out a folded 300-function trace into well-formed XML', async () => {
    const root = parseXml(await renderSvg(generatedTrace(300), options));
    const nodes = findAll(root, 'g').filter((g) => g.attributes.get('class') === 'node');
    // 60 kept functions, their folds, and the legend's 12 sample points.
    expect(nodes.length).toBeGreaterThan(60 + 12);
  });
});

describe('parseXml, the well-formedness check used here', () => {
  it('rejects what a sloppy SVG writer would produce', () => {
    expect(() => parseXml('<svg><g></svg>')).toThrow(/closes <g>/);
    expect(() => parseXml('<svg><a href="x?a=1&b=2"/></svg>')).toThrow(/bare &/);
    expect(() => parseXml('<svg><text>a < b</text></svg>')).toThrow(/not well-formed/);
    expect(() => parseXml('<svg a="1" a="2"/>')).toThrow(/duplicate attribute/);
  });
});

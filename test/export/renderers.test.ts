import { describe, expect, it } from 'vitest';
import { renderFormats, renderers } from '../../src/export/renderers.js';
import { defaultRenderOptions } from '../../src/export/types.js';
import { expectGolden } from './golden.js';
import { schedulerTrace } from './sample-traces.js';

describe('renderers', () => {
  it('offers the formats of DESIGN.md, the tree first', () => {
    expect(renderFormats).toEqual(['tree', 'json', 'mermaid', 'dot', 'svg', 'md']);
  });

  it('renders every format to text ending in a newline', async () => {
    for (const format of renderFormats) {
      const text = await renderers[format](schedulerTrace(), defaultRenderOptions);
      expect(text.length, format).toBeGreaterThan(100);
      expect(text.endsWith('\n'), format).toBe(true);
    }
  });
});

describe('renderers.json', () => {
  it('prints the trace contract unchanged and unfolded', () => {
    const trace = schedulerTrace();
    const text = renderers.json(trace);
    expect(JSON.parse(text)).toEqual(trace);
    expectGolden('scheduler.json', text);
  });
});

/**
 * The facts encoding gives back exactly what a JSON round trip gives: same values, same keys in
 * the same order, `undefined` left out, whatever the shape.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeFacts, encodeFacts } from '../../src/index/facts-codec.js';

const viaJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
const roundTrip = (v: unknown) => decodeFacts<unknown>(encodeFacts(v));

describe('encodeFacts / decodeFacts', () => {
  it('round-trips facts-like values as JSON does, key order included', () => {
    const value = {
      v: 10,
      package: 'scheduler',
      funcs: [
        { kind: 'func', name: 'Run', col: 5, params: [[null, 'context.Context']], line: 1 },
        { kind: 'lit', name: '1', parent: -1, col: 0, params: [], line: 70000, variadic: true },
      ],
      calls: [{ fn: 0, callee: ['s', ['i', 'q'], 'Add', 12, 4], args: [], go: undefined }],
      numbers: [0, 54, 55, 63, 64, 127, 128, 300, 2 ** 31, 2 ** 32 - 1, 2 ** 32, -1, -70000, 0.5],
      special: [-0, NaN, Infinity, null, true, false, '', undefined],
      text: ['héllo', '🙂 emoji', 'tab\tand\nnewline', '"quoted"', '\u0000nul'],
      build: '(linux && amd64) || darwin',
    };
    const back = roundTrip(value);
    expect(back).toEqual(viaJson(value));
    expect(JSON.stringify(back)).toBe(JSON.stringify(value));
  });

  it('keeps a lone surrogate that a cut string can end with', () => {
    const cut = 'x🙂'.slice(0, 2);
    expect(roundTrip([cut, 'ok'])).toEqual([cut, 'ok']);
  });

  it('handles more strings, shapes and items than fit in a tag byte', () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ [`k${i % 90}`]: `s${i}`, n: i * 1000 }));
    expect(roundTrip(many)).toEqual(viaJson(many));
  });

  it('refuses bytes of another encoding instead of misreading them', () => {
    const raw = inflateRawSync(encodeFacts({ a: 1 }));
    raw[0] = 99;
    expect(() => decodeFacts(deflateRawSync(raw))).toThrow(/facts encoding 99/);
  });
});

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

  it('gives back arrays of every length with their items in order', () => {
    // Short ones are decoded as literals, longer ones in a loop: both, nested in each other.
    const arrays = Array.from({ length: 9 }, (_, n) =>
      Array.from({ length: n }, (_, i) => (i % 2 ? [`${n}.${i}`, i] : { at: i, of: [n, i] })),
    );
    expect(roundTrip(arrays)).toEqual(arrays);
    expect(roundTrip([arrays, [arrays[5], []], 'end'])).toEqual([arrays, [arrays[5], []], 'end']);
  });

  it('keeps a lone surrogate that a cut string can end with', () => {
    const cut = 'x🙂'.slice(0, 2);
    expect(roundTrip([cut, 'ok'])).toEqual([cut, 'ok']);
  });

  it('handles more strings, shapes and items than fit in a tag byte', () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ [`k${i % 90}`]: `s${i}`, n: i * 1000 }));
    expect(roundTrip(many)).toEqual(viaJson(many));
  });

  it('writes every shape a value uses in its own encoding, whatever earlier ones held', () => {
    const first = [{ a: 1, b: 2 }, { a: 3 }];
    const second = [{ b: 4, a: 5 }, { a: 6, b: 7 }, { a: 8, b: undefined }, { a: 9 }];
    const one = encodeFacts(first);
    const two = encodeFacts(second);
    // Each decodes alone, in either order: no shape is carried from one encoding to the next.
    expect(decodeFacts<unknown>(two)).toEqual(viaJson(second));
    expect(decodeFacts<unknown>(one)).toEqual(viaJson(first));
    expect(JSON.stringify(decodeFacts<unknown>(two))).toBe(JSON.stringify(second));
    // And the same value encodes to the same bytes the second time.
    expect(Buffer.from(encodeFacts(second)).equals(Buffer.from(two))).toBe(true);
  });

  it('still round-trips after values keyed by data (a new shape for every object)', () => {
    const keyed = Array.from({ length: 20_000 }, (_, i) => ({ [`key${i}`]: i, next: i + 1 }));
    expect(roundTrip(keyed)).toEqual(viaJson(keyed));
    const after = [
      { kind: 'func', name: 'Run' },
      { name: 'x', kind: 'lit' },
    ];
    expect(JSON.stringify(roundTrip(after))).toBe(JSON.stringify(after));
  });

  it('refuses bytes of another encoding instead of misreading them', () => {
    const raw = inflateRawSync(encodeFacts({ a: 1 }));
    raw[0] = 99;
    expect(() => decodeFacts(deflateRawSync(raw))).toThrow(/facts encoding 99/);
  });
});

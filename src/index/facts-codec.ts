/**
 * How FileFacts travel and are stored: from a parse worker to the main thread, into the `blobs`
 * table, and back out for the link phase.
 *
 * A compact binary form of any JSON value, not a schema of FileFacts: strings are written once
 * per file (a table decoded with one TextDecoder call), objects name their keys through a shape
 * table (the key list, in order, once per distinct shape), and small numbers, string references,
 * array lengths and shapes fit in the tag byte. Facts of any shape round-trip exactly as
 * JSON.parse(JSON.stringify(facts)) would give them (same keys in the same order, `undefined`
 * left out), so adding a fact list needs no change here.
 *
 * Why not JSON: decoding JSON text (JSON.parse) cost the link phase about twice what decoding
 * this does, inflate included, and deflating JSON text cost the workers more than deflating
 * this (a third of the bytes).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { FileFacts } from './facts.js';

// Tags. One byte carries a small value where it can.
const NULL = 0;
const TRUE = 1;
const FALSE = 2;
const UINT = 3; // varint follows
const NEG = 4; // -(varint)
const FLOAT = 5; // float64 follows
const STRING = 6; // string index varint follows
const ARRAY = 7; // length varint, then items
const OBJECT = 8; // shape index varint, then values
const SMALL_UINT = 9; // 9..63: 0..54
const SMALL_UINT_MAX = 63 - SMALL_UINT;
const SMALL_STRING = 64; // 64..127: string 0..63
const SMALL_ARRAY = 128; // 128..191: array of length 0..63
const SMALL_OBJECT = 192; // 192..255: shape 0..63
const SMALL = 64;

/** Format version, first byte of every encoding. */
const VERSION = 1;

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

interface Shape {
  id: number;
  keys: string[];
}

class Writer {
  buf = new Uint8Array(1 << 14);
  pos = 0;

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  varint(n: number): void {
    this.ensure(5);
    while (n > 127) {
      this.buf[this.pos++] = (n & 127) | 128;
      n >>>= 7;
    }
    this.buf[this.pos++] = n;
  }

  tagged(small: number, big: number, n: number): void {
    if (n < SMALL) this.byte(small + n);
    else {
      this.byte(big);
      this.varint(n);
    }
  }
}

// Reused across calls (encoding is synchronous): a fresh 16 KB buffer a file cost more than the
// strings it held. The result is an exact-size copy.
const bodyWriter = new Writer();
const headWriter = new Writer();

/**
 * Encoded, then deflated at level 1: 2.7x smaller (43 MB of v1.24's facts became 16 MB, which
 * kept the database under its 200 MB budget), for a fraction of what JSON text cost to deflate.
 */
export function encodeFacts(facts: unknown): Uint8Array {
  // An exact-size copy: posting a Buffer to the main thread clones its whole backing store.
  return new Uint8Array(deflateRawSync(encodeValue(facts), { level: 1 }));
}

export function decodeFacts<T = FileFacts>(bytes: Uint8Array): T {
  return decodeValue<T>(inflateRawSync(bytes));
}

/**
 * Objects' key lists, as a tree from the first key: an object's shape is found by walking its keys,
 * where joining them into a string (the Map key it was) cost ~0.35 s of v1.24's ~1.95 s. The tree
 * outlives a file; a node's shape is its file's (`file`, a count of encodings) or none yet.
 */
interface ShapeNode {
  next: Map<string, ShapeNode>;
  file: number;
  shape: Shape | undefined;
}

/** Nodes kept across files (facts have a few hundred); values keyed by data start a new tree. */
const SHAPE_NODES_KEPT = 1 << 14;
let shapeNodes = 0;
const newShapeNode = (): ShapeNode => {
  shapeNodes++;
  return { next: new Map(), file: -1, shape: undefined };
};
let shapeRoot = newShapeNode();
/** Encodings so far: the `file` a node's shape belongs to. */
let encodings = 0;

function encodeValue(facts: unknown): Uint8Array {
  const body = bodyWriter;
  body.pos = 0;
  const file = ++encodings;
  if (shapeNodes > SHAPE_NODES_KEPT) {
    shapeNodes = 0;
    shapeRoot = newShapeNode();
  }
  const strings = new Map<string, number>();
  const shapeList: Shape[] = [];
  const intern = (s: string): number => {
    let i = strings.get(s);
    if (i === undefined) {
      i = strings.size;
      strings.set(s, i);
    }
    return i;
  };
  const value = (v: unknown): void => {
    switch (typeof v) {
      case 'string':
        body.tagged(SMALL_STRING, STRING, intern(v));
        return;
      case 'number':
        // -0 lands in the first branch and comes back as 0, as through JSON.
        if (Number.isInteger(v) && Math.abs(v) <= 0xffffffff) {
          if (v >= 0 && v <= SMALL_UINT_MAX) body.byte(SMALL_UINT + v);
          else if (v >= 0) {
            body.byte(UINT);
            body.varint(v);
          } else {
            body.byte(NEG);
            body.varint(-v);
          }
        } else if (Number.isFinite(v)) writeFloat(body, v);
        else body.byte(NULL); // as JSON.stringify writes NaN and Infinity
        return;
      case 'boolean':
        body.byte(v ? TRUE : FALSE);
        return;
      case 'object': {
        if (v === null) {
          body.byte(NULL);
          return;
        }
        if (Array.isArray(v)) {
          body.tagged(SMALL_ARRAY, ARRAY, v.length);
          for (const item of v) {
            if (item === undefined || typeof item === 'function') body.byte(NULL);
            else value(item);
          }
          return;
        }
        const record = v as Record<string, unknown>;
        let node = shapeRoot;
        for (const k in record) {
          if (!kept(record[k])) continue;
          let next = node.next.get(k);
          if (next === undefined) node.next.set(k, (next = newShapeNode()));
          node = next;
        }
        let shape = node.file === file ? node.shape : undefined;
        if (shape === undefined) {
          const keys = Object.keys(record).filter((k) => kept(record[k]));
          shape = { id: shapeList.length, keys };
          for (const k of keys) intern(k);
          node.file = file;
          node.shape = shape;
          shapeList.push(shape);
        }
        body.tagged(SMALL_OBJECT, OBJECT, shape.id);
        for (const k of shape.keys) value(record[k]);
        return;
      }
      default:
        throw new TypeError(`facts hold a ${typeof v}, which JSON cannot carry`);
    }
  };
  value(facts);

  // Header: version, strings (count, UTF-16 lengths, UTF-8 bytes; JSON text for the rare string
  // that is not well-formed UTF-16), shapes (count, then key count and key string indexes).
  const head = headWriter;
  head.pos = 0;
  head.byte(VERSION);
  const list = [...strings.keys()];
  const odd: number[] = [];
  const texts = list.map((s, i) => {
    if (!LONE_SURROGATE.test(s)) return s;
    odd.push(i);
    return JSON.stringify(s);
  });
  head.varint(list.length);
  for (const t of texts) head.varint(t.length);
  head.varint(odd.length);
  for (const i of odd) head.varint(i);
  const bytes = textEncoder.encode(texts.join(''));
  head.varint(bytes.length);
  head.ensure(bytes.length);
  head.buf.set(bytes, head.pos);
  head.pos += bytes.length;
  head.varint(shapeList.length);
  for (const shape of shapeList) {
    head.varint(shape.keys.length);
    for (const k of shape.keys) head.varint(strings.get(k)!);
  }
  return Buffer.concat([head.buf.subarray(0, head.pos), body.buf.subarray(0, body.pos)]);
}

/** With the `u` flag a surrogate pair is one code point: only a lone surrogate matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;

function kept(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}

function writeFloat(w: Writer, v: number): void {
  w.byte(FLOAT);
  w.ensure(8);
  new DataView(w.buf.buffer, w.buf.byteOffset).setFloat64(w.pos, v, true);
  w.pos += 8;
}

function decodeValue<T>(bytes: Uint8Array): T {
  let pos = 0;
  const varint = (): number => {
    let b = bytes[pos++]!;
    if (b < 128) return b;
    let n = b & 127;
    let scale = 128;
    do {
      b = bytes[pos++]!;
      n += (b & 127) * scale;
      scale *= 128;
    } while (b & 128);
    return n;
  };
  if (bytes[pos++] !== VERSION) throw new Error(`facts encoding ${bytes[0]} is not ${VERSION}`);
  const count = varint();
  const lengths = new Array<number>(count);
  for (let i = 0; i < count; i++) lengths[i] = varint();
  const oddCount = varint();
  const odd: number[] = [];
  for (let i = 0; i < oddCount; i++) odd.push(varint());
  const byteCount = varint();
  const joined = textDecoder.decode(bytes.subarray(pos, pos + byteCount));
  pos += byteCount;
  const strings = new Array<string>(count);
  for (let i = 0, at = 0; i < count; i++) {
    strings[i] = joined.slice(at, at + lengths[i]!);
    at += lengths[i]!;
  }
  for (const i of odd) strings[i] = JSON.parse(strings[i]!) as string;
  const shapeCount = varint();
  const shapes = new Array<string[]>(shapeCount);
  for (let i = 0; i < shapeCount; i++) {
    const n = varint();
    const keys = new Array<string>(n);
    for (let k = 0; k < n; k++) keys[k] = strings[varint()]!;
    shapes[i] = keys;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Short arrays (expressions are tuples: 4.72 of v1.24's 4.75 million arrays have 5 items or
  // fewer) as literals, whose elements are evaluated left to right. Decoding all of v1.24's facts
  // and keeping them, the collector's scavenges fell from 67 (~950 ms) to 28-29 (~360-440 ms)
  // against `new Array(n)` filled in a loop.
  const array = (n: number): unknown[] => {
    switch (n) {
      case 0:
        return [];
      case 1:
        return [value()];
      case 2:
        return [value(), value()];
      case 3:
        return [value(), value(), value()];
      case 4:
        return [value(), value(), value(), value()];
      case 5:
        return [value(), value(), value(), value(), value()];
      default: {
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++) out[i] = value();
        return out;
      }
    }
  };
  const object = (keys: string[]): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) out[keys[i]!] = value();
    return out;
  };
  const value = (): unknown => {
    const tag = bytes[pos++]!;
    if (tag >= SMALL_OBJECT) return object(shapes[tag - SMALL_OBJECT]!);
    if (tag >= SMALL_ARRAY) return array(tag - SMALL_ARRAY);
    if (tag >= SMALL_STRING) return strings[tag - SMALL_STRING];
    if (tag >= SMALL_UINT) return tag - SMALL_UINT;
    switch (tag) {
      case NULL:
        return null;
      case TRUE:
        return true;
      case FALSE:
        return false;
      case UINT:
        return varint();
      case NEG:
        return -varint();
      case FLOAT: {
        const v = view.getFloat64(pos, true);
        pos += 8;
        return v;
      }
      case STRING:
        return strings[varint()];
      case ARRAY:
        return array(varint());
      case OBJECT:
        return object(shapes[varint()]!);
      default:
        throw new Error(`bad facts encoding: tag ${tag} at ${pos - 1}`);
    }
  };
  return value() as T;
}

/**
 * How FileFacts travel and are stored: from a parse worker to the main thread, into the `blobs`
 * table, and back out for the link phase.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { FileFacts } from './facts.js';

export function encodeFacts(facts: FileFacts): Uint8Array {
  // An exact-size copy: posting a Buffer to the main thread clones its whole backing store,
  // which zlib can leave much larger than the compressed bytes.
  return new Uint8Array(deflateRawSync(JSON.stringify(facts), { level: 1 }));
}

export function decodeFacts(bytes: Uint8Array): FileFacts {
  return JSON.parse(inflateRawSync(bytes).toString('utf8')) as FileFacts;
}

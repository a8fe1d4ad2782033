import { createHash } from 'node:crypto';

/** The id git gives a file's content (`git hash-object`, without filters). */
export function gitBlobId(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

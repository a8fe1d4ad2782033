/**
 * What linked an index: the link's and the facts' versions and the built-in rules. Kept in the
 * tree's summary, so a read command can tell an index linked by another k8s-read (or other rules)
 * from a current one without reading the tree: such an index answers as that version did until
 * `index` links it again.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FACTS_VERSION } from '../index/facts.js';
import { rulesDir, stdMethodsFile } from '../shared/rules-dir.js';
import { LINK_VERSION } from './link-version.js';

let memo: string | undefined;

export function linkerId(): string {
  if (memo) return memo;
  const hash = createHash('sha1');
  for (const file of [path.join(rulesDir, 'frameworks.yaml'), stdMethodsFile]) {
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update(`missing:${file}`);
    }
  }
  memo = `link ${LINK_VERSION} facts ${FACTS_VERSION} rules ${hash.digest('hex').slice(0, 12)}`;
  return memo;
}

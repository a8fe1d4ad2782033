/**
 * The rules a trace reads (rules/components.yaml and rules/noise.yaml), validated once per
 * content. Validating means loading zod and the YAML parser, about 130 ms of a 500 ms `trace`;
 * the validated rules are kept as JSON in the cache directory under the hash of the files' text,
 * so an edited rules file is read and validated again, and a damaged or missing cache is only a
 * slower start.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { NoiseRules } from '../resolve/rules.js';
import { rulesDir } from '../shared/rules-dir.js';
import type { ComponentRules } from '../trace/trace-component.js';
import { writeCacheEntry } from './cache-entries.js';
import type { CliContext } from './context.js';
import { cacheDir } from './repo.js';

export interface TraceRules {
  components: Record<string, ComponentRules>;
  noise: NoiseRules;
}

/** Bump when the shape of TraceRules changes: older cache files are then not read. */
const FORMAT = 1;

export async function loadTraceRules(ctx: CliContext, dir = rulesDir): Promise<TraceRules> {
  const files = ruleFiles(dir);
  const cacheFile = cachePath(ctx, dir);
  const cached = cacheFile ? readCache(cacheFile) : undefined;
  if (cached) return cached;
  const [{ loadComponentRules }, { loadNoiseRules }] = await Promise.all([
    import('../trace/rules-data.js'),
    import('../resolve/rules.js'),
  ]);
  const rules = {
    components: loadComponentRules(files.components),
    noise: loadNoiseRules(files.noise),
  };
  if (cacheFile) writeCache(cacheFile, rules);
  return rules;
}

function ruleFiles(dir: string) {
  return { components: path.join(dir, 'components.yaml'), noise: path.join(dir, 'noise.yaml') };
}

/**
 * A digest of the text of the rules a trace reads, or undefined when a file cannot be read (the
 * validating path reports it). By content alone: two installs with the same rules share it.
 */
export function traceRulesDigest(dir = rulesDir): string | undefined {
  try {
    const hash = createHash('sha1').update(`k8s-read trace rules ${FORMAT}\0`);
    for (const file of Object.values(ruleFiles(dir)))
      hash.update(path.basename(file)).update('\0').update(readFileSync(file)).update('\0');
    return hash.digest('hex');
  } catch {
    return undefined;
  }
}

/** `<cache>/rules/<digest of the files>.json`, or undefined when a file or the cache is unusable. */
function cachePath(ctx: CliContext, dir: string): string | undefined {
  const digest = traceRulesDigest(dir);
  try {
    return digest && path.join(cacheDir(ctx), 'rules', `${digest}.json`);
  } catch {
    // An unusable cache directory only costs the cache.
    return undefined;
  }
}

function readCache(file: string): TraceRules | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<TraceRules>;
    const noise = data.noise;
    if (
      typeof data.components === 'object' &&
      data.components !== null &&
      Array.isArray(noise?.packages) &&
      Array.isArray(noise?.functions)
    )
      return data as TraceRules;
  } catch {
    // Missing or damaged: validate again.
  }
  return undefined;
}

/** Entries kept: rules of other installs or versions on this machine, not each one's edits forever. */
const KEPT = 8;

/**
 * Written whole or not at all; past KEPT entries, the least recently written go (two installs
 * with different rules would otherwise remove each other's entry on every trace).
 */
function writeCache(file: string, rules: TraceRules): void {
  try {
    writeCacheEntry(file, JSON.stringify(rules), { count: KEPT });
  } catch {
    // A read-only or full cache directory: the next trace validates again.
  }
}

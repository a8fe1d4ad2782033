/** rules/components.yaml, validated. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import type { ComponentRules } from './trace-component.js';

const schema = z.object({
  components: z.record(
    z.string(),
    z.object({
      scope: z.array(z.string()).optional(),
      registries: z.array(z.string()).min(1).optional(),
    }),
  ),
});

const rulesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'rules');

export function loadComponentRules(
  file = path.join(rulesDir, 'components.yaml'),
): Record<string, ComponentRules> {
  const result = schema.safeParse(parse(readFileSync(file, 'utf8')));
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new UsageError(`${file}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data.components as Record<string, ComponentRules>;
}

/** rules/components.yaml, validated. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { readYamlFile } from '../shared/yaml-file.js';
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
  const { data } = readYamlFile(file, schema, {
    kind: 'rules file',
    fix: 'fix the component(s) above',
    unreadableFix: 'reinstall k8s-read (rules/ ships with it)',
  });
  return data.components as Record<string, ComponentRules>;
}

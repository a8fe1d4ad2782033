/** rules/components.yaml, validated. */
import path from 'node:path';
import { z } from 'zod';
import { rulesDir } from '../shared/rules-dir.js';
import { readYamlFile } from '../shared/yaml-file.js';
import type { ComponentRules } from './trace-component.js';

const schema = z.object({
  components: z.record(
    z.string(),
    z.object({
      scope: z.array(z.string()).optional(),
      registries: z.array(z.string()).min(1).optional(),
      follow: z.array(z.string()).min(1).optional(),
    }),
  ),
});

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

/** Where the rules k8s-read ships (`rules/*.yaml`) live: beside `dist/` and `src/`. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const rulesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'rules',
);

/** The standard library's method sets (scripts/go-std-methods.go), read by the resolver. */
export const stdMethodsFile = path.join(rulesDir, 'go-std-methods.json');

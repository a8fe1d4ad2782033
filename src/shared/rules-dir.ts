/** Where the rules k8s-read ships (`rules/*.yaml`) live: beside `dist/` and `src/`. */
import path from 'node:path';
import { packageRoot } from './package-root.js';

export const rulesDir = path.join(packageRoot, 'rules');

/** The standard library's method sets (scripts/go-std-methods.go), read by the resolver. */
export const stdMethodsFile = path.join(rulesDir, 'go-std-methods.json');

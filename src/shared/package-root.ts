/** The k8s-read package's directory (above `src/` and `dist/`): where rules, queries, guides,
 * fixtures and the native binding are found. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

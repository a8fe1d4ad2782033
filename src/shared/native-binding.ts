/**
 * The native binding `npm install` builds (binding.gyp, src/native/capture-walk.c): the parser
 * (src/index/native.ts) and the file mapping of trace records (map-file.ts) both load it here.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { packageRoot } from './package-root.js';

export const nativeBindingPath = path.join(packageRoot, 'build', 'Release', 'k8s_read_native.node');

/** The binding's exports, or undefined when it is not built. */
export function loadNativeBinding<T>(): T | undefined {
  if (!existsSync(nativeBindingPath)) return undefined;
  return createRequire(import.meta.url)(nativeBindingPath) as T;
}

/**
 * A file's bytes mapped into memory by the native binding (src/native/capture-walk.c, `mapFile`):
 * the pages a reader touches come from the page cache, with no copy of the whole file. Null where
 * that is not possible (no binding built, another platform, a missing or empty file); the caller
 * then reads the file.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { packageRoot } from './package-root.js';

/** The native binding `npm install` builds (binding.gyp). */
export const nativeBindingPath = path.join(packageRoot, 'build', 'Release', 'k8s_read_native.node');

export function mapFile(file: string): ArrayBuffer | null {
  if (!existsSync(nativeBindingPath)) return null;
  try {
    const binding = createRequire(import.meta.url)(nativeBindingPath) as {
      mapFile?: (file: string) => ArrayBuffer | null;
    };
    return binding.mapFile?.(file) ?? null;
  } catch {
    return null;
  }
}

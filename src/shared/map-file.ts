/**
 * A file's bytes mapped into memory by the native binding (src/native/capture-walk.c, `mapFile`):
 * the pages a reader touches come from the page cache, with no copy of the whole file. Null where
 * that is not possible (no binding built, another platform, a missing or empty file); the caller
 * then reads the file.
 */
import { loadNativeBinding } from './native-binding.js';

export function mapFile(file: string): ArrayBuffer | null {
  try {
    const binding = loadNativeBinding<{ mapFile?: (file: string) => ArrayBuffer | null }>();
    return binding?.mapFile?.(file) ?? null;
  } catch {
    return null;
  }
}

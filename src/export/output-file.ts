/**
 * Writing an export to `--out FILE`: checked before the (slow) trace is built, so a typo in the
 * path fails at once, and written through a temporary file in the same directory and a rename,
 * so a reader never opens half an SVG and an interrupted export leaves the old file intact.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OutputFileError } from './errors.js';

/** Throws OutputFileError unless `file` can be created or replaced. */
export function checkOutputFile(file: string): void {
  const dir = path.dirname(file);
  const dirStat = statSync(dir, { throwIfNoEntry: false });
  if (!dirStat) throw new OutputFileError(file, `no directory ${dir}`);
  if (!dirStat.isDirectory()) throw new OutputFileError(file, `${dir} is not a directory`);
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory())
    throw new OutputFileError(file, 'it is a directory');
  try {
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new OutputFileError(file, `${dir} is not writable`, { cause: error });
  }
}

/** Writes `content` to `file` atomically (temporary file + rename in the same directory). */
export function writeOutputFile(file: string, content: string): void {
  checkOutputFile(file);
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    writeFileSync(temp, content);
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new OutputFileError(file, reason, { cause: error });
  }
}

/** Paths inside a repository, as git and the index write them: relative, `/`-separated. */

/** The directory of a repository-relative file path (`''` at the root). */
export function dirOf(file: string): string {
  const at = file.lastIndexOf('/');
  return at < 0 ? '' : file.slice(0, at);
}

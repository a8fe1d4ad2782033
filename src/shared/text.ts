/**
 * Text from outside (file names from git, user input) made safe for one line of output: a newline
 * or another control character in a file name would otherwise break the line it is printed on.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;

/** The path as is, or JSON-quoted (`"a\nb.go"`) when it holds control characters. */
export function printablePath(path: string): string {
  return CONTROL.test(path) ? JSON.stringify(path) : path;
}
